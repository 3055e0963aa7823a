import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// Rule 3's SQL passwords (the twenty-third session): a statement that sets a password names no
/// key with a separator, so rule 2 never saw one. MySQL's general and slow query logs, PostgreSQL's
/// `log_statement = 'all'`, an ORM's or a migration tool's SQL log and an app that logs a failed
/// statement all write them: `CREATE USER 'app'@'%' IDENTIFIED BY 'hunter2'`, `ALTER ROLE app WITH
/// LOGIN PASSWORD 'hunter2'`. The scanner and the regular-expression reference agree, a second pass
/// changes nothing, and the near misses keep their text.
@Suite("Log sanitizer: passwords in SQL statements")
struct LogSanitizerSQLPasswordTests {
    @Test("the scanner agrees with the reference on 20,000 lines of SQL statements, and is idempotent")
    func differentialSQLPasswords() async {
        let mismatches = await LogSanitizerTests.agreement(20_000, seed: 0x5EED_0023, engines: true) { corpus, _ in
            corpus.sqlPasswordLine()
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// The attack: each of these kept its password before this session. The last of each case is
    /// the same line with its word one letter off (or its value's quote missing, where the rule
    /// needs one), which keeps the password: the words are what make the value a password.
    @Test(
        "a password in a SQL statement goes; the statement's words stay",
        arguments: [
            (
                "CREATE USER 'app'@'%' IDENTIFIED BY 'hunter2';",
                "CREATE USER 'app'@'%' IDENTIFIED BY '[redacted-secret]';",
                "CREATE USER 'app'@'%' IDENTIFIE BY 'hunter2';"
            ),
            (
                "CREATE USER scott IDENTIFIED BY hunter2 DEFAULT TABLESPACE users;",
                "CREATE USER scott IDENTIFIED BY [redacted-secret] DEFAULT TABLESPACE users;",
                "CREATE USER scott IDENTIFIED BYE hunter2 DEFAULT TABLESPACE users;"
            ),
            (
                "ALTER USER app IDENTIFIED WITH caching_sha2_password BY 'hunter2'",
                "ALTER USER app IDENTIFIED WITH caching_sha2_password BY '[redacted-secret]'",
                "ALTER USER app IDENTIFIED WITHOUT caching_sha2_password BY 'hunter2'"
            ),
            (
                // MySQL's hash logs in as well as the password does (`mysql_native_password`).
                "ALTER USER app IDENTIFIED WITH 'mysql_native_password' AS '*hunter2'",
                "ALTER USER app IDENTIFIED WITH 'mysql_native_password' AS '[redacted-secret]'",
                "ALTER USER app IDENTIFIED WITH 'mysql_native_password' AT '*hunter2'"
            ),
            (
                "GRANT ALL ON db.* TO u IDENTIFIED BY PASSWORD '*6BB4837EB7hunter2'",
                "GRANT ALL ON db.* TO u IDENTIFIED BY PASSWORD '[redacted-secret]'",
                "GRANT ALL ON db.* TO u IDENTIFIEDBY PASSWORDS '*6BB4837EB7hunter2'"
            ),
            (
                "ALTER ROLE app WITH LOGIN PASSWORD 'hunter2';",
                "ALTER ROLE app WITH LOGIN PASSWORD '[redacted-secret]';",
                "ALTER ROLE app WITH LOGIN PASSWORDS 'hunter2';"
            ),
            (
                "CREATE ROLE app ENCRYPTED PASSWORD 'it''s hunter2' VALID UNTIL 'infinity'",
                "CREATE ROLE app ENCRYPTED PASSWORD '[redacted-secret]' VALID UNTIL 'infinity'",
                "CREATE ROLE app ENCRYPTED PASSWOR 'it''s hunter2' VALID UNTIL 'infinity'"
            ),
            (
                "SET PASSWORD FOR 'bob'@'localhost' = 'hunter2'",
                "SET PASSWORD FOR 'bob'@'localhost' = '[redacted-secret]'",
                "SET PASSWORD FORM 'bob'@'localhost' = 'hunter2'"
            ),
            (
                "SELECT PASSWORD('hunter2')", "SELECT PASSWORD('[redacted-secret]')", "SELECT PASSWORDS('hunter2')"
            ),
            (
                "login failed: wrong password \"hunter2\" for bob",
                "login failed: wrong password \"[redacted-secret]\" for bob",
                "login failed: wrong password hunter2 for bob"
            ),
            (
                // Over several lines, as a migration tool logs a statement.
                "CREATE USER app\n    IDENTIFIED BY\n    'hunter2';",
                "CREATE USER app\n    IDENTIFIED BY\n    '[redacted-secret]';",
                "CREATE USER app\n    IDENTIFIED_BY\n    'hunter2';"
            ),
            (
                "{\"sql\":\"ALTER USER app IDENTIFIED BY \\\"hunter2\\\"\",\"ms\":3}",
                "{\"sql\":\"ALTER USER app IDENTIFIED BY \\\"[redacted-secret]\\\"\",\"ms\":3}",
                "{\"sql\":\"ALTER USER app IDENTIFIED B \\\"hunter2\\\"\",\"ms\":3}"
            ),
            (
                // A quote inside the value, JSON-escaped: `\\\"` is the value's, `\"` closes it.
                "{\"sql\":\"ALTER ROLE a PASSWORD \\\"hunter2\\\\\\\"q\\\"\"}",
                "{\"sql\":\"ALTER ROLE a PASSWORD \\\"[redacted-secret]\\\"\"}",
                "{\"sql\":\"ALTER ROLE a PASS \\\"hunter2\\\\\\\"q\\\"\"}"
            ),
            (
                "{'query': 'ALTER ROLE app PASSWORD \\'hunter2\\''}",
                "{'query': 'ALTER ROLE app PASSWORD \\'[redacted-secret]\\''}",
                "{'query': 'ALTER ROLE app PASSWORDS \\'hunter2\\''}"
            ),
        ]
    )
    func passwordGoes(_ input: String, _ expected: String, _ unprotected: String) {
        #expect(LogSanitizerTests.checkedRedaction(input) == expected)
        let kept = LogSanitizer.redact(unprotected)
        #expect(kept.contains("hunter2"), "\(kept.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(unprotected) == kept)
    }

    /// What stays: prose and statements with no password, a pin (§4: pins stay readable), an empty
    /// value, and a value a first pass already made a placeholder.
    @Test(
        "near misses keep their text",
        arguments: [
            "CREATE USER ops IDENTIFIED EXTERNALLY;", "ALTER ROLE app PASSWORD NULL;", "the unidentified by-product",
            "pin identified by sha256/AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8= ok",
            "ALTER ROLE app PASSWORD '';", "ALTER ROLE app PASSWORD '[redacted-secret]';",
            "reset passwords 'weekly'", "password reset for bob", "SET PASSWORD FOR bob = NULL",
            "IDENTIFIED BY [redacted-secret]",
        ]
    )
    func nearMissStays(_ line: String) {
        #expect(LogSanitizerTests.checkedRedaction(line) == line)
    }

    /// Over-redaction accepted (README "Still open"): prose that reads as a statement loses a word,
    /// as `sshpass -p` in prose does.
    @Test("prose shaped like a statement loses one word")
    func proseLosesAWord() {
        #expect(
            LogSanitizerTests.checkedRedaction("issue identified by QA today")
                == "issue identified by [redacted-secret] today")
    }
}
