internal import CPinKitCollectorShims
import Foundation

/// The C callbacks libmicrohttpd calls on its worker threads.
///
/// They are nonisolated and live outside `main.swift` (a closure there would be main-actor
/// isolated and trap when a worker thread calls it). The server travels as an `Unmanaged`
/// pointer in libmicrohttpd's context slot; each request's state as an `Unmanaged`
/// ``RequestState`` in the per-request slot, released by `completed`.
enum HTTPServerCallbacks {
    /// Body bytes of one request, collected across calls.
    final class RequestState {
        var body: [UInt8] = []
        var tooLarge = false
    }

    static let access: pk_handler = { context, connection, url, method, data, size, slot in
        guard let context else { return 0 }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        if slot.pointee == nil {
            // First call: headers are in. Refuse a declared oversized body before reading it.
            let state = RequestState()
            slot.pointee = Unmanaged.passRetained(state).toOpaque()
            if let length = pk_header(connection, "Content-Length").map({ String(cString: $0) }),
                let declared = Int(length), declared > server.limits.maximumBody
            {
                let response = CollectorAPI.problem(
                    413, "body-too-large", "the body is \(declared) bytes; the limit is \(server.limits.maximumBody)")
                return respond(connection, response)
            }
            return 1
        }
        let state = Unmanaged<RequestState>.fromOpaque(slot.pointee!).takeUnretainedValue()
        if size.pointee > 0 {
            if let data, !state.tooLarge {
                if state.body.count + size.pointee > server.limits.maximumBody {
                    state.tooLarge = true
                    state.body = []
                } else {
                    data.withMemoryRebound(to: UInt8.self, capacity: size.pointee) {
                        state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size.pointee))
                    }
                }
            }
            size.pointee = 0
            return 1
        }
        let request = makeRequest(
            server: server, connection: connection, url: String(cString: url), method: String(cString: method),
            state: state)
        return respond(connection, server.handler(request))
    }

    static let completed: pk_completed = { _, slot in
        guard let slot else { return }
        Unmanaged<RequestState>.fromOpaque(slot).release()
    }

    private static func makeRequest(
        server: HTTPServer, connection: OpaquePointer, url: String, method: String, state: RequestState
    ) -> HTTPRequest {
        var headers: [String: String] = [:]
        for name in HTTPRequest.collectedHeaders {
            if let value = pk_header(connection, name) { headers[name] = String(cString: value) }
        }
        var query: [String: String] = [:]
        for name in HTTPRequest.collectedQuery {
            if let value = pk_query(connection, name) { query[name] = String(cString: value) }
        }
        var buffer = [CChar](repeating: 0, count: 64)
        let peer = pk_client_address(connection, &buffer, buffer.count) == 1 ? String(cString: buffer) : ""
        let client = ClientAddress.resolve(
            peer: peer, forwardedFor: headers["x-forwarded-for"], trustedProxies: server.trustedProxies)
        var request = HTTPRequest(
            method: method, path: url, query: query, headers: headers, body: state.body, clientAddress: client,
            bodyTooLarge: state.tooLarge)
        if method == "POST", !state.tooLarge {
            let form = FormCollector()
            let parsed = withExtendedLifetime(form) {
                state.body.withUnsafeBytes { body in
                    pk_parse_form(
                        connection, body.baseAddress, body.count, formField, Unmanaged.passUnretained(form).toOpaque())
                }
            }
            if parsed == 1 {
                request.form = form.fields
            } else if parsed == 0 {
                request.formMalformed = true
            }
        }
        return request
    }

    /// The fields of one form as the post processor hands them over, bounded in number.
    final class FormCollector {
        static let maximumFields = 32
        var fields: [FormField] = []
    }

    static let formField: pk_form_field = { context, name, filename, data, offset, size in
        guard let context else { return 0 }
        let form = Unmanaged<FormCollector>.fromOpaque(context).takeUnretainedValue()
        let key = String(cString: name)
        // A new field starts at offset 0; later pieces continue the last field of that name.
        if offset == 0 || form.fields.last?.name != key {
            guard form.fields.count < FormCollector.maximumFields else { return 0 }
            form.fields.append(FormField(name: key, filename: filename.map { String(cString: $0) }, value: []))
        }
        if let data, size > 0 {
            data.withMemoryRebound(to: UInt8.self, capacity: size) {
                form.fields[form.fields.count - 1].value.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
            }
        }
        return 1
    }

    private static func respond(_ connection: OpaquePointer, _ response: HTTPResponse) -> Int32 {
        var strings: [String] = []
        for (name, value) in response.headers {
            strings.append(name)
            strings.append(value)
        }
        let pointers = strings.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        let constant = pointers.map { UnsafePointer<CChar>($0) }
        return constant.withUnsafeBufferPointer { headers in
            response.body.withUnsafeBytes { body in
                pk_respond(
                    connection, UInt32(response.status), body.baseAddress, body.count, headers.baseAddress,
                    response.headers.count)
            }
        }
    }
}
