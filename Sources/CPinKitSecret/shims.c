#include "CPinKitSecret.h"

#include <libsecret/secret.h>
#include <string.h>

// Items: xdg:schema=org.pinkit.Credentials, kind (tokens | server-url), server (scheme://host:port,
// tokens only) and account. SECRET_SCHEMA_NONE: the schema name is stored and matched too.
static const SecretSchema pinkit_schema = {
    "org.pinkit.Credentials",
    SECRET_SCHEMA_NONE,
    {
        {"kind", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {"server", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {"account", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {NULL, 0},
    },
};

static void set_message(char **message, const char *prefix, const GError *error) {
    *message = g_strdup_printf("%s%s%s", prefix, error ? ": " : "", error ? error->message : "");
}

static GHashTable *attributes(const char *kind, const char *server, const char *account) {
    GHashTable *table = g_hash_table_new(g_str_hash, g_str_equal);
    g_hash_table_insert(table, (gpointer) "kind", (gpointer) kind);
    if (server != NULL) g_hash_table_insert(table, (gpointer) "server", (gpointer) server);
    g_hash_table_insert(table, (gpointer) "account", (gpointer) account);
    return table;
}

// A SecretService proxy on the session bus of this process (DBUS_SESSION_BUS_ADDRESS, else
// $XDG_RUNTIME_DIR/bus), opened per call rather than libsecret's cached default: a service that
// went away and came back is found again. libsecret cannot be pointed at another bus.
static pinkit_secret_status open_service(SecretService **service, char **message) {
    GError *error = NULL;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (bus == NULL) {
        set_message(message, "cannot connect to the D-Bus session bus", error);
        g_clear_error(&error);
        return PINKIT_SECRET_UNAVAILABLE;
    }
    // g_bus_get's default is to exit the process when the bus goes away: a library must not.
    g_dbus_connection_set_exit_on_close(bus, FALSE);
    *service = secret_service_open_sync(SECRET_TYPE_SERVICE, NULL, SECRET_SERVICE_OPEN_SESSION, NULL, &error);
    g_object_unref(bus);
    if (*service == NULL) {
        set_message(message, "nothing serves org.freedesktop.secrets on the D-Bus session bus", error);
        g_clear_error(&error);
        return PINKIT_SECRET_UNAVAILABLE;
    }
    return PINKIT_SECRET_OK;
}

static void close_service(SecretService *service) { g_object_unref(service); }

// The default collection must exist and be unlocked before anything is written: storing into a
// locked or missing collection makes the service prompt.
static pinkit_secret_status check_default_collection(SecretService *service, char **message) {
    GError *error = NULL;
    SecretCollection *collection =
        secret_collection_for_alias_sync(service, SECRET_COLLECTION_DEFAULT, SECRET_COLLECTION_NONE, NULL, &error);
    if (collection == NULL) {
        if (error != NULL) {
            set_message(message, "cannot read the default collection", error);
            g_clear_error(&error);
            return PINKIT_SECRET_FAILED;
        }
        *message = g_strdup("the Secret Service has no default collection (keyring)");
        return PINKIT_SECRET_NO_DEFAULT_COLLECTION;
    }
    gboolean locked = secret_collection_get_locked(collection);
    g_object_unref(collection);
    if (locked) {
        *message = g_strdup("the default collection (keyring) is locked");
        return PINKIT_SECRET_LOCKED;
    }
    return PINKIT_SECRET_OK;
}

// Every matching item, locked or not, never unlocking (no SECRET_SEARCH_UNLOCK: that prompts).
static pinkit_secret_status search(
    SecretService *service, const char *kind, const char *server, const char *account, SecretSearchFlags flags,
    GList **items, char **message) {
    GError *error = NULL;
    GHashTable *table = attributes(kind, server, account);
    *items = secret_service_search_sync(service, &pinkit_schema, table, SECRET_SEARCH_ALL | flags, NULL, &error);
    g_hash_table_unref(table);
    if (error != NULL) {
        set_message(message, "the Secret Service search failed", error);
        g_clear_error(&error);
        return PINKIT_SECRET_FAILED;
    }
    return PINKIT_SECRET_OK;
}

pinkit_secret_status pinkit_secret_store(
    const char *kind, const char *server, const char *account, const char *label,
    const char *secret, char **message) {
    SecretService *service = NULL;
    pinkit_secret_status status = open_service(&service, message);
    if (status != PINKIT_SECRET_OK) return status;
    status = check_default_collection(service, message);
    if (status == PINKIT_SECRET_OK) {
        GError *error = NULL;
        GHashTable *table = attributes(kind, server, account);
        SecretValue *value = secret_value_new(secret, -1, "text/plain");
        if (!secret_service_store_sync(
                service, &pinkit_schema, table, SECRET_COLLECTION_DEFAULT, label, value, NULL, &error)) {
            set_message(message, "the Secret Service refused to store the item", error);
            g_clear_error(&error);
            status = PINKIT_SECRET_FAILED;
        }
        secret_value_unref(value);
        g_hash_table_unref(table);
    }
    close_service(service);
    return status;
}

pinkit_secret_status pinkit_secret_lookup(
    const char *kind, const char *server, const char *account, char **secret,
    char **message) {
    *secret = NULL;
    SecretService *service = NULL;
    pinkit_secret_status status = open_service(&service, message);
    if (status != PINKIT_SECRET_OK) return status;
    // A locked collection is an error even when it might hold nothing: "not found" would read
    // as "logged out", a silent fallback.
    status = check_default_collection(service, message);
    GList *items = NULL;
    if (status == PINKIT_SECRET_OK)
        status = search(service, kind, server, account, SECRET_SEARCH_LOAD_SECRETS, &items, message);
    if (status == PINKIT_SECRET_OK) {
        status = PINKIT_SECRET_NOT_FOUND;
        for (GList *node = items; node != NULL; node = node->next) {
            SecretItem *item = node->data;
            if (secret_item_get_locked(item)) {
                *message = g_strdup("the item is in a locked collection (keyring)");
                status = PINKIT_SECRET_LOCKED;
                break;
            }
            SecretValue *value = secret_item_get_secret(item);
            if (value == NULL) continue;
            const char *text = secret_value_get_text(value);
            if (text != NULL) {
                *secret = g_strdup(text);
                status = PINKIT_SECRET_OK;
            }
            secret_value_unref(value);
            if (status == PINKIT_SECRET_OK) break;
        }
        g_list_free_full(items, g_object_unref);
    }
    close_service(service);
    return status;
}

static pinkit_secret_status remove_items(GList *items, char **message) {
    for (GList *node = items; node != NULL; node = node->next) {
        SecretItem *item = node->data;
        if (secret_item_get_locked(item)) {
            *message = g_strdup("the item is in a locked collection (keyring)");
            return PINKIT_SECRET_LOCKED;
        }
        GError *error = NULL;
        if (!secret_item_delete_sync(item, NULL, &error)) {
            // Deleted meanwhile by another writer: the goal (no such item) holds.
            if (g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD) ||
                g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT)) {
                g_clear_error(&error);
                continue;
            }
            set_message(message, "the Secret Service refused to delete the item", error);
            g_clear_error(&error);
            return PINKIT_SECRET_FAILED;
        }
    }
    return PINKIT_SECRET_OK;
}

pinkit_secret_status pinkit_secret_clear(
    const char *kind, const char *server, const char *account, int *count, char **message) {
    *count = 0;
    SecretService *service = NULL;
    pinkit_secret_status status = open_service(&service, message);
    if (status != PINKIT_SECRET_OK) return status;
    status = check_default_collection(service, message);
    GList *items = NULL;
    if (status == PINKIT_SECRET_OK) status = search(service, kind, server, account, SECRET_SEARCH_NONE, &items, message);
    if (status == PINKIT_SECRET_OK) {
        *count = (int) g_list_length(items);
        status = remove_items(items, message);
        g_list_free_full(items, g_object_unref);
    }
    close_service(service);
    return status;
}

pinkit_secret_status pinkit_secret_count(
    const char *kind, const char *server, const char *account, int *count, char **message) {
    *count = 0;
    SecretService *service = NULL;
    pinkit_secret_status status = open_service(&service, message);
    if (status != PINKIT_SECRET_OK) return status;
    GList *items = NULL;
    status = search(service, kind, server, account, SECRET_SEARCH_NONE, &items, message);
    if (status == PINKIT_SECRET_OK) {
        *count = (int) g_list_length(items);
        g_list_free_full(items, g_object_unref);
    }
    close_service(service);
    return status;
}

void pinkit_secret_free(char *string) {
    if (string == NULL) return;
    memset(string, 0, strlen(string));
    g_free(string);
}
