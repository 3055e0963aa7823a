#include "CPinKitCollectorShims.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <microhttpd.h>

// A connection's start time, for the total per-request deadline. libmicrohttpd's timeout is
// reset by every byte received, so a sender dripping one byte at a time would never hit it.
typedef struct pk_tracked {
    struct MHD_Connection *connection;
    int fd;
    uint64_t started_ms;
    int cut;
    struct pk_tracked *next;
} pk_tracked;

struct pk_server {
    struct MHD_Daemon *daemon;
    pk_handler handler;
    pk_completed completed;
    void *context;
    unsigned int deadline_ms;
    pthread_mutex_t lock;
    pk_tracked *tracked;
    uint64_t cutoffs;
    int stopping;
    pthread_t reaper;
    int has_reaper;
    pthread_cond_t wake;
};

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static enum MHD_Result access_trampoline(void *cls, struct MHD_Connection *connection, const char *url,
                                         const char *method, const char *version, const char *upload_data,
                                         size_t *upload_data_size, void **con_cls) {
    (void)version;
    pk_server *server = cls;
    return server->handler(server->context, connection, url, method, upload_data, upload_data_size, con_cls)
               ? MHD_YES
               : MHD_NO;
}

static void completed_trampoline(void *cls, struct MHD_Connection *connection, void **con_cls,
                                 enum MHD_RequestTerminationCode toe) {
    (void)connection;
    (void)toe;
    pk_server *server = cls;
    if (*con_cls != NULL) {
        server->completed(server->context, *con_cls);
        *con_cls = NULL;
    }
}

// Runs in libmicrohttpd's threads. CLOSED is delivered before libmicrohttpd closes the socket,
// so an fd in the list is always still this connection's: the reaper never touches a reused fd.
static void notify_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                              enum MHD_ConnectionNotificationCode code) {
    (void)socket_context;
    pk_server *server = cls;
    pthread_mutex_lock(&server->lock);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        pk_tracked *entry = calloc(1, sizeof(*entry));
        if (entry != NULL && info != NULL) {
            entry->connection = connection;
            entry->fd = info->connect_fd;
            entry->started_ms = now_ms();
            entry->next = server->tracked;
            server->tracked = entry;
        } else {
            free(entry);
        }
    } else {
        pk_tracked **link = &server->tracked;
        while (*link != NULL) {
            if ((*link)->connection == connection) {
                pk_tracked *gone = *link;
                *link = gone->next;
                free(gone);
                break;
            }
            link = &(*link)->next;
        }
    }
    pthread_mutex_unlock(&server->lock);
}

// Every connection older than the deadline is shut down (not closed: libmicrohttpd sees the
// end of the stream, closes the socket itself and runs its normal cleanup). A keep-alive
// connection's clock restarts with each completed request (see pk_request_done).
static void *reaper_main(void *argument) {
    pk_server *server = argument;
    uint64_t period = server->deadline_ms / 4;
    if (period < 10) period = 10;
    if (period > 250) period = 250;
    pthread_mutex_lock(&server->lock);
    while (!server->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)(period % 1000) * 1000000L;
        until.tv_sec += (time_t)(period / 1000) + until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&server->wake, &server->lock, &until);
        uint64_t now = now_ms();
        for (pk_tracked *entry = server->tracked; entry != NULL; entry = entry->next) {
            if (!entry->cut && now - entry->started_ms > server->deadline_ms) {
                entry->cut = 1;
                server->cutoffs += 1;
                shutdown(entry->fd, SHUT_RDWR);
            }
        }
    }
    pthread_mutex_unlock(&server->lock);
    return NULL;
}

// A request finished on a keep-alive connection: its deadline clock restarts.
static void request_done(pk_server *server, struct MHD_Connection *connection) {
    pthread_mutex_lock(&server->lock);
    for (pk_tracked *entry = server->tracked; entry != NULL; entry = entry->next) {
        if (entry->connection == connection) {
            entry->started_ms = now_ms();
            break;
        }
    }
    pthread_mutex_unlock(&server->lock);
}

static void completed_with_restart(void *cls, struct MHD_Connection *connection, void **con_cls,
                                   enum MHD_RequestTerminationCode toe) {
    pk_server *server = cls;
    completed_trampoline(cls, connection, con_cls, toe);
    if (toe == MHD_REQUEST_TERMINATED_COMPLETED_OK) request_done(server, connection);
}

pk_server *pk_server_start(const pk_server_options *options, pk_handler handler, pk_completed completed,
                           void *context, char *error, size_t error_size) {
    struct sockaddr_storage address;
    memset(&address, 0, sizeof(address));
    unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&address;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&address;
    if (inet_pton(AF_INET, options->address, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(options->port);
    } else if (inet_pton(AF_INET6, options->address, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(options->port);
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(error, error_size, "not a numeric IPv4 or IPv6 address: %s", options->address);
        return NULL;
    }
    int tls = options->tls_cert_pem != NULL && options->tls_key_pem != NULL;
    if (tls) {
        if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
            snprintf(error, error_size, "this libmicrohttpd was built without TLS support");
            return NULL;
        }
        flags |= MHD_USE_TLS;
    }
    pk_server *server = calloc(1, sizeof(*server));
    if (server == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    server->handler = handler;
    server->completed = completed;
    server->context = context;
    server->deadline_ms = options->request_deadline_ms;
    pthread_mutex_init(&server->lock, NULL);
    pthread_cond_init(&server->wake, NULL);
    unsigned int threads = options->threads > 0 ? options->threads : 1;
    struct MHD_OptionItem tls_options[] = {
        {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)options->tls_cert_pem},
        {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)options->tls_key_pem},
        {MHD_OPTION_END, 0, NULL},
    };
    struct MHD_OptionItem no_options[] = {{MHD_OPTION_END, 0, NULL}};
    errno = 0;
    server->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, &access_trampoline, server,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_TIMEOUT, options->idle_timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, options->connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, options->connection_memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, &completed_with_restart, server,
        MHD_OPTION_NOTIFY_CONNECTION, &notify_connection, server,
        MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u,
        MHD_OPTION_ARRAY, tls ? tls_options : no_options,
        MHD_OPTION_END);
    if (server->daemon == NULL) {
        snprintf(error, error_size, "libmicrohttpd could not start on %s port %u (%s)", options->address,
                 (unsigned)options->port, errno != 0 ? strerror(errno) : "bad TLS material or options");
        pthread_mutex_destroy(&server->lock);
        pthread_cond_destroy(&server->wake);
        free(server);
        return NULL;
    }
    if (server->deadline_ms > 0) {
        server->has_reaper = pthread_create(&server->reaper, NULL, reaper_main, server) == 0;
    }
    return server;
}

uint16_t pk_server_port(pk_server *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

uint64_t pk_server_deadline_cutoffs(pk_server *server) {
    pthread_mutex_lock(&server->lock);
    uint64_t count = server->cutoffs;
    pthread_mutex_unlock(&server->lock);
    return count;
}

void pk_server_stop(pk_server *server) {
    pthread_mutex_lock(&server->lock);
    server->stopping = 1;
    pthread_cond_signal(&server->wake);
    pthread_mutex_unlock(&server->lock);
    if (server->has_reaper) pthread_join(server->reaper, NULL);
    MHD_stop_daemon(server->daemon);
    while (server->tracked != NULL) {
        pk_tracked *next = server->tracked->next;
        free(server->tracked);
        server->tracked = next;
    }
    pthread_mutex_destroy(&server->lock);
    pthread_cond_destroy(&server->wake);
    free(server);
}

int pk_respond(struct MHD_Connection *connection, unsigned int status, const void *body, size_t length,
               const char *const *headers, size_t count) {
    struct MHD_Response *response =
        MHD_create_response_from_buffer(length, (void *)(body != NULL ? body : ""), MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return 0;
    for (size_t index = 0; index + 1 < count * 2 && headers != NULL; index += 2) {
        if (headers[index] != NULL && headers[index + 1] != NULL) {
            MHD_add_response_header(response, headers[index], headers[index + 1]);
        }
    }
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result == MHD_YES;
}

const char *pk_header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

const char *pk_query(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, name);
}

int pk_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return 0;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        return inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, (socklen_t)size) != NULL;
    }
    if (address->sa_family == AF_INET6) {
        return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, (socklen_t)size) !=
               NULL;
    }
    return 0;
}

int pk_tls_supported(void) { return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES; }

typedef struct {
    pk_form_field field;
    void *context;
    int stopped;
} pk_form_state;

static enum MHD_Result form_trampoline(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                                       const char *content_type, const char *transfer_encoding, const char *data,
                                       uint64_t off, size_t size) {
    (void)kind;
    (void)content_type;
    (void)transfer_encoding;
    pk_form_state *state = cls;
    if (key == NULL || state->field(state->context, key, filename, data, off, size) != 1) {
        state->stopped = 1;
        return MHD_NO;
    }
    return MHD_YES;
}

static int has_prefix_ignoring_case(const char *text, const char *prefix) {
    return strncasecmp(text, prefix, strlen(prefix)) == 0;
}

int pk_parse_form(struct MHD_Connection *connection, const void *body, size_t length, pk_form_field field,
                  void *context) {
    const char *type = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (type == NULL) return -1;
    if (!has_prefix_ignoring_case(type, "application/x-www-form-urlencoded") &&
        !has_prefix_ignoring_case(type, "multipart/form-data"))
        return -1;
    pk_form_state state = {field, context, 0};
    // NULL for a multipart type without a usable boundary (missing, or too long for the buffer).
    struct MHD_PostProcessor *processor = MHD_create_post_processor(connection, 4096, &form_trampoline, &state);
    if (processor == NULL) return 0;
    enum MHD_Result processed = length == 0 ? MHD_YES : MHD_post_process(processor, body, length);
    // MHD_NO from destroy: the body ended mid-field or mid-part.
    enum MHD_Result complete = MHD_destroy_post_processor(processor);
    return processed == MHD_YES && complete == MHD_YES && !state.stopped ? 1 : 0;
}
