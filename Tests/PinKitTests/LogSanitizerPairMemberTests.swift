import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// Rule 2's name–value pairs with plain members between the name and the value (the eighteenth
/// session): AWS SSM writes `Type` between `Name` and `Value`, and JSON with sorted keys puts any
/// key from `o` to `u` there. The scanner and the regular-expression reference agree, a second pass
/// changes nothing, and what the look-back does not pass (a structure, a fifth member, another
/// `value` member) keeps the value as before.
@Suite("Log sanitizer: members between a pair's name and value")
struct LogSanitizerPairMemberTests {
    @Test("the scanner agrees with the reference on 20,000 lines of pairs with members between, and is idempotent")
    func differentialPairMembers() async {
        let mismatches = await LogSanitizerTests.agreement(20_000, seed: 0x5EED_0019, engines: true) { corpus, _ in
            corpus.pairMemberLine()
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// The attack: these leaked before (a member between the name and the value). The same
    /// objects with a member the look-back does not pass (a nested object) still keep the value:
    /// the protection is the look-back over plain members.
    @Test(
        "AWS SSM output, sorted keys and Go's %+v: the value goes; past a structure it stays",
        arguments: [
            #"{"Parameter":{"Name":"/prod/db/password","Type":"SecureString","Value":"hunter2","Version":1}}"#,
            #"{"Parameters":[{"Name":"/app/api_key","Type":"SecureString","Value":"hunter2","Version":3,"DataType":"text"}]}"#,
            #"{"name":"DB_PASSWORD","type":"string","value":"hunter2"}"#,
            #"{"key":"x-api-key","enabled":true,"note":"rotated","order":2,"value":"hunter2"}"#,
            #"{'name': 'api_token', 'note': 'rotated', 'n': 3, 'value': 'hunter2'}"#,
            #"{Name:DB_PASSWORD Type:String Value:hunter2}"#,
            #"&EnvVar{Name:DB_PASSWORD,Kind:plain,Value:hunter2,}"#,
            #"{"log":"{\"Name\":\"/prod/db/password\",\"Type\":\"SecureString\",\"Value\":\"hunter2\"}"}"#,
            // HAR's `postData` params of a Rails or PHP form: the name keeps its form suffixes.
            #"{"params":[{"name":"user[password]","value":"hunter2"},{"name":"user[email]","value":"a@b.c"}]}"#,
            #"{"name":"user%5Bpassword%5D","value":"hunter2"} {"name":"api_key[]","value":"hunter2"}"#,
            // `aws ssm get-parameter-history`: a time and an ARN between (a `:` inside a string).
            #"{"Name":"/prod/db/password","LastModifiedDate":"2024-06-19T10:51:16.123000+00:00","LastModifiedUser":"arn:aws:iam::123456789012:user/ops","Value":"hunter2"}"#,
        ]
    )
    func membersBetween(_ input: String) {
        let once = LogSanitizerTests.checkedRedaction(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        // Without the look-back over members: a nested object right before the value stops it.
        let blocked = Self.insertStructure(before: input)
        #expect(LogSanitizer.redact(blocked).contains("hunter2"), "\(blocked.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(blocked) == LogSanitizer.redact(blocked))
    }

    /// `input` with a member holding a nested object right before its `value` member.
    static func insertStructure(before input: String) -> String {
        for (member, structure) in [
            (#""Value":"#, #""Meta":{"a":1},"#), (#""value":"#, #""meta":{"a":1},"#),
            (#"'value':"#, #"'meta': {'a': 1}, "#), ("Value:", "Meta:{a:1} "),
            (#"\"Value\":"#, #"\"Meta\":{\"a\":1},"#),
        ] {
            if let range = input.range(of: member) {
                return input.replacingCharacters(in: range, with: structure + member)
            }
        }
        return input
    }

    @Test(
        "what the look-back does not pass keeps the value",
        arguments: [
            // A fifth member, a `value` member, a key of 33 bytes, a string of 65, a quote, a `:`.
            #"{"name":"token","a":1,"b":2,"c":3,"d":4,"e":5,"value":"kept"}"#,
            #"{"name":"token","value":"x","value":"kept"}"#,
            #"{"name":"token","aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa":1,"value":"kept"}"#,
            #"{"name":"token","a":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","value":"kept"}"#,
            #"{"name":"token","a":"x=y","value":"kept"}"#, #"{Name:token Url://a.io Value:kept}"#,
            #"{"name":"token","a":"https://a.io/x","value":"kept"}"#, #"{Name:token At:10:51 Value:kept}"#,
            // A name that is no credential key.
            #"{"Name":"/prod/db/host","Type":"String","Value":"kept"}"#,
        ]
    )
    func notPassed(_ input: String) {
        let once = LogSanitizer.redact(input)
        #expect(once.contains("kept"), "\(once.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    /// The attack: a log message that holds a pretty-printed document or a YAML manifest
    /// (`kubectl get pod -o yaml`, a Helm values dump) kept every `env` value: the look-back passed
    /// no line break. The same inputs with the value's line indented past the rule's 64 keep it: the
    /// protection is the look-back over a line break and its indentation.
    @Test(
        "members on lines of their own (pretty-printed JSON, pprint, YAML): the value goes",
        arguments: [
            "{\n  \"name\": \"DB_PASSWORD\",\n  \"value\": \"hunter2\"\n}",
            "[\r\n    {\r\n        \"name\": \"api_key\",\r\n        \"type\": \"string\",\r\n        \"value\": \"hunter2\"\r\n    }\r\n]",
            #"{"body":"{\n  \"Name\": \"/prod/db/password\",\n  \"Value\": \"hunter2\"\n}"}"#,
            "{'name': 'DB_PASSWORD',\n 'value': 'hunter2'}",
            "env:\n- name: LOG_LEVEL\n  value: debug\n- name: DB_PASSWORD\n  value: hunter2\n",
            "spec:\n  containers:\n  - env:\n    - name: API_TOKEN\n      type: string\n      value: \"hunter2\"\n",
            #"{"msg":"env:\n  - name: API_TOKEN\n    value: hunter2\n  - name: MODE\n    value: fast"}"#,
            "name: secret_key\r\nvalue: hunter2",
            "- name: DB_PASSWORD\n\tvalue: hunter2",
            // Go's `json.MarshalIndent(v, "", "\t")` in a JSON logger's string: escaped tabs.
            #"{"msg":"{\n\t\"name\": \"DB_PASSWORD\",\n\t\"value\": \"hunter2\"\n}"}"#,
            #"{"msg":"name: API_TOKEN\n\tvalue: hunter2"}"#,
        ]
    )
    func linesOfTheirOwn(_ input: String) {
        let once = LogSanitizerTests.checkedRedaction(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        // Other pairs' values stay: only a credential's name labels one.
        for kept in ["debug", "fast"] where input.contains(kept) { #expect(once.contains(kept)) }
        let blocked = Self.indentedPastLimit(input)
        #expect(blocked != input)
        #expect(LogSanitizer.redact(blocked).contains("hunter2"), "\(blocked.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(blocked) == LogSanitizer.redact(blocked))
    }

    /// `input` with 65 more spaces (or tabs) right before the secret's `value` member, after the
    /// line break before it: past the indentation the look-back reads over.
    static func indentedPastLimit(_ input: String) -> String {
        guard let secret = input.range(of: "hunter2"),
            let member = input[..<secret.lowerBound].range(of: "value", options: [.caseInsensitive, .backwards]),
            let lineBreak = input[..<member.lowerBound].range(of: "\n", options: .backwards)
                ?? input[..<member.lowerBound].range(of: #"\n"#, options: .backwards)
        else { return input }
        return input.replacingCharacters(
            in: lineBreak.upperBound..<lineBreak.upperBound, with: String(repeating: " ", count: 65))
    }

    /// The attack: Node's `console.log` of an `env` list (`util.inspect`), Ruby 3.4's `inspect` and
    /// YAML with quoted names kept the value: unquoted members were read with unquoted strings
    /// only. The same text with the name's quotes mismatched keeps it: the protection is the
    /// look-back over a string in quotes of its own.
    @Test(
        "unquoted members with quoted strings (util.inspect, Ruby, YAML): the value goes",
        arguments: [
            "{ name: 'DB_PASSWORD', value: 'hunter2' }",
            "[ { name: 'API_TOKEN', type: 'string', value: 'hunter2' } ]",
            #"{name: "DB_PASSWORD", value: "hunter2"}"#,
            "- name: \"DB_PASSWORD\"\n  value: \"hunter2\"\n",
            "{\n  name: 'client_secret',\n  source: 'env',\n  value: 'hunter2'\n}",
            "env: [ { name: 'DB_HOST', value: 'db' }, { name: 'DB_PASSWORD', value: 'hunter2' } ]",
        ]
    )
    func quotedStringsInUnquotedMembers(_ input: String) {
        let once = LogSanitizerTests.checkedRedaction(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        if input.contains("DB_HOST") { #expect(once.contains("value: 'db'")) }
        // The name's closing quote of the other kind: no string, and the value stays.
        let blocked = Self.mismatchedNameQuote(input)
        #expect(blocked != input)
        #expect(LogSanitizer.redact(blocked).contains("hunter2"), "\(blocked.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(blocked) == LogSanitizer.redact(blocked))
    }

    /// `input` with the closing quote of the secret's name swapped for the other kind.
    static func mismatchedNameQuote(_ input: String) -> String {
        for name in ["DB_PASSWORD", "API_TOKEN", "client_secret"] {
            for (quote, other) in [("'", "\""), ("\"", "'")] {
                if let range = input.range(of: name + quote, options: .backwards) {
                    return input.replacingCharacters(in: range, with: name + other)
                }
            }
        }
        return input
    }

    /// Found by the nineteenth session's hostile review: a bare `name` right after a UUID's last
    /// hex digit is no member (a word's tail), but rule 5 then writes `[redacted-uuid]` in the
    /// UUID's place, and `name` after that `]` was one on a second pass, which took the value the
    /// first had left. A `]` before a bare `name` or `key` is no boundary now, in both passes.
    @Test(
        "a bare name glued to a UUID: a second pass changes nothing",
        arguments: [
            "550e8400-e29b-41d4-a716-446655440000name: A_TOKEN\nvalue: hunter2",
            "550e8400-e29b-41d4-a716-446655440000key: DB_PASSWORD\n  value: hunter2",
            "{ID:550e8400-e29b-41d4-a716-446655440000name:DB_PASSWORD Value:hunter2}",
            "[redacted-uuid]name: A_TOKEN\nvalue: hunter2",
        ]
    )
    func gluedToPlaceholder(_ input: String) {
        _ = LogSanitizerTests.checkedRedaction(input)
    }

    @Test("at the limits: four members, a key of 32 bytes and a string of 64 are passed")
    func limits() {
        let key = String(repeating: "k", count: 32)
        let text = String(repeating: "v", count: 64)
        let input = #"{"name":"token","a":1,"b":2,"# + "\"\(key)\":\"\(text)\"" + #","d":4,"value":"hunter2"}"#
        let once = LogSanitizer.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }
}
