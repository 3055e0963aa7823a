#ifndef PINKIT_COLLECTOR_SHIMS_H
#define PINKIT_COLLECTOR_SHIMS_H
// libmicrohttpd's variadic MHD_start_daemon, its closed enums and the per-request deadline
// (libmicrohttpd's own connection timeout is an idle timeout) as plain, typed C.
#include <stddef.h>
#include <stdint.h>

struct MHD_Connection;

/// One running libmicrohttpd daemon plus its deadline reaper.
typedef struct pk_server pk_server;

/// The access handler: libmicrohttpd's, with an int result (1 continue, 0 close) instead of
/// the closed `enum MHD_Result`. `request` is the per-request slot (`*con_cls`).
typedef int (*pk_handler)(void *_Nullable context, struct MHD_Connection *_Nonnull connection,
                          const char *_Nonnull url, const char *_Nonnull method,
                          const char *_Nullable upload_data, size_t *_Nonnull upload_data_size,
                          void *_Nullable *_Nonnull request);

/// Called once when a request ends (answered, failed or cut off), with its slot.
typedef void (*pk_completed)(void *_Nullable context, void *_Nullable request);

typedef struct {
    /// A numeric IPv4 or IPv6 address to listen on.
    const char *_Nonnull address;
    /// 0 picks a free port (read it back with pk_server_port).
    uint16_t port;
    /// PEM certificate chain and key: HTTPS when both are set.
    const char *_Nullable tls_cert_pem;
    const char *_Nullable tls_key_pem;
    unsigned int threads;
    /// libmicrohttpd's idle timeout.
    unsigned int idle_timeout_seconds;
    /// The total time a connection may take for one request; 0 disables the reaper.
    unsigned int request_deadline_ms;
    unsigned int connection_limit;
    /// Memory per connection: bounds the request line and headers.
    size_t connection_memory_limit;
} pk_server_options;

/// Starts an epoll daemon with an internal thread pool. NULL on failure, with a message in `error`.
pk_server *_Nullable pk_server_start(const pk_server_options *_Nonnull options, pk_handler _Nonnull handler,
                                     pk_completed _Nonnull completed, void *_Nullable context,
                                     char *_Nonnull error, size_t error_size);
uint16_t pk_server_port(pk_server *_Nonnull server);
/// Connections cut off because they exceeded the request deadline, since start.
uint64_t pk_server_deadline_cutoffs(pk_server *_Nonnull server);
/// Stops the daemon (waits for its threads) and frees it.
void pk_server_stop(pk_server *_Nonnull server);

/// Queues a response with a copy of `body`. `headers` holds `count` name/value pairs. 1 on success.
int pk_respond(struct MHD_Connection *_Nonnull connection, unsigned int status, const void *_Nullable body,
               size_t length, const char *_Nullable const *_Nullable headers, size_t count);
/// A request header's value, or NULL.
const char *_Nullable pk_header(struct MHD_Connection *_Nonnull connection, const char *_Nonnull name);
/// A query-string argument's value, or NULL.
const char *_Nullable pk_query(struct MHD_Connection *_Nonnull connection, const char *_Nonnull name);
/// The peer's numeric address into `buffer` (NUL-terminated). 1 on success.
int pk_client_address(struct MHD_Connection *_Nonnull connection, char *_Nonnull buffer, size_t size);
/// One piece of a form field's value, as libmicrohttpd's post processor delivers it: `offset`
/// is where `data` goes in the field's value. 1 to continue, 0 to stop (the form is refused).
typedef int (*pk_form_field)(void *_Nullable context, const char *_Nonnull name, const char *_Nullable filename,
                             const char *_Nullable data, uint64_t offset, size_t size);

/// Parses a complete request body as the form its Content-Type names
/// (`application/x-www-form-urlencoded` or `multipart/form-data`) with libmicrohttpd's post
/// processor. 1 parsed completely; 0 malformed (a missing or unusable boundary, a truncated or
/// garbled body, or `field` said stop); -1 the Content-Type is not a form.
int pk_parse_form(struct MHD_Connection *_Nonnull connection, const void *_Nullable body, size_t length,
                  pk_form_field _Nonnull field, void *_Nullable context);
/// Whether this libmicrohttpd was built with TLS support.
int pk_tls_supported(void);

#endif
