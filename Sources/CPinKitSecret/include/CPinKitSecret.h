#ifndef PINKIT_SECRET_H
#define PINKIT_SECRET_H
// The few Secret Service operations PinKit needs, as plain C over libsecret, so no GLib type
// reaches Swift. Every function opens its own Secret Service proxy on the session bus and
// releases it before returning: no GObject state is shared between threads.
//
// None of these functions ever prompts: a locked default collection, a missing one, a bus
// without a Secret Service and a bus that cannot be reached are all reported, never resolved
// by asking the user (a prompt hangs where there is no display).

/// What a call found. Negative values are failures; the message says which.
typedef enum {
    PINKIT_SECRET_OK = 0,
    /// Lookup only: no item matched.
    PINKIT_SECRET_NOT_FOUND = 1,
    /// The bus cannot be reached, or nothing serves org.freedesktop.secrets on it.
    PINKIT_SECRET_UNAVAILABLE = -1,
    /// The default collection (or a matching item) is locked; unlocking it would prompt.
    PINKIT_SECRET_LOCKED = -2,
    /// No collection has the "default" alias; creating one would prompt.
    PINKIT_SECRET_NO_DEFAULT_COLLECTION = -3,
    /// The service answered with an error.
    PINKIT_SECRET_FAILED = -4,
} pinkit_secret_status;

/// Stores `secret` under the PinKit schema in the default collection, replacing the item with
/// the same attributes in one Secret Service call (CreateItem with replace). `server` may be
/// NULL (the attribute is then absent).
/// - Parameter message: set on failure to a string the caller frees with pinkit_secret_free.
pinkit_secret_status pinkit_secret_store(
    const char *_Nonnull kind, const char *_Nullable server,
    const char *_Nonnull account, const char *_Nonnull label, const char *_Nonnull secret,
    char *_Nullable *_Nonnull message);

/// Looks the item up without unlocking anything. On PINKIT_SECRET_OK `*secret` is set (free it
/// with pinkit_secret_free, which wipes it); PINKIT_SECRET_NOT_FOUND when no item matches.
pinkit_secret_status pinkit_secret_lookup(
    const char *_Nonnull kind, const char *_Nullable server,
    const char *_Nonnull account, char *_Nullable *_Nonnull secret, char *_Nullable *_Nonnull message);

/// Deletes every matching item; nothing matching is success (clear is idempotent).
/// `*count` receives how many items matched before deletion.
pinkit_secret_status pinkit_secret_clear(
    const char *_Nonnull kind, const char *_Nullable server,
    const char *_Nonnull account, int *_Nonnull count, char *_Nullable *_Nonnull message);

/// Counts the matching items (locked or not) without reading or unlocking them.
pinkit_secret_status pinkit_secret_count(
    const char *_Nonnull kind, const char *_Nullable server,
    const char *_Nonnull account, int *_Nonnull count, char *_Nullable *_Nonnull message);

/// Frees (and first overwrites with zeros) a string returned by the functions above.
void pinkit_secret_free(char *_Nullable string);

#endif
