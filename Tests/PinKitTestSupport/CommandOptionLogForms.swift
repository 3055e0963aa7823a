/// Passwords in a command's short options (the twentieth session): `sshpass -p`, `docker login -p`,
/// mysql's glued `-p`, `7z -p`, `redis-cli -a`, `ldapsearch -w`, `zip -P`, `openssl -k`, keytool's
/// `-storepass`, flags combined before `-w` and `-P` (`-xw`, `-rP`), lftp's `-u user,password`; and
/// their near misses (the same options with no command word, or before it; a
/// command word glued to a path or a dash; mysql's `-p` apart, which names the database; a value
/// that is another option). The differential test `LogSanitizerCommandOptionTests` draws its lines
/// from here (its own stream, so the corpus the benchmark measures stays as it was).
extension LogCorpus {
    /// A line of command options among credentials, URLs and words.
    public mutating func commandOptionLine() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            parts.append(
                chance(55)
                    ? commandOption()
                    : chance(20) ? htpasswdCommand() : chance(40) ? userOption() : chance(50) ? url() : pick(Self.words)
            )
        }
        return parts.joined(separator: pick([" ", " \\\n\t", "\t", "", " \\\\\\n\\t", "\n", "\"", ", ", " | "]))
    }

    /// htpasswd in batch mode (the twenty-second session): its word (or a near miss), option words
    /// (with `b` or not, `-n` or not, `-C` and a number, too many, too long), the file and the user
    /// (or too few, a name starting with `-`, an email or a token as the user), and the password.
    public mutating func htpasswdCommand() -> String {
        let command = pick([
            "htpasswd", "htpasswd", "/usr/bin/htpasswd", "RUN htpasswd", "xhtpasswd", "htpasswd.sh", "\\nhtpasswd",
            "set -e\\nhtpasswd", "htdigest", "sshpass x; htpasswd", "ldapsearch; htpasswd",
        ])
        var options: [String] = []
        for _ in 0..<Int.random(in: 1...5, using: &generator) {
            options.append(
                pick([
                    "-b", "-bc", "-nb", "-Bbn", "-c", "-B", "-n", "-C 10", "-bBC10", "-C", "-bx", "-bccccccccc",
                    "-bcnBv", "-r 5", "--", "-bC  12", "-pb", "-bw", "--x",
                ]))
        }
        let separators = [" ", " ", "\t", "  ", "\\t", "\\\\t"]
        var line = command + pick(separators) + options.joined(separator: pick(separators))
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            line +=
                pick(separators)
                + pick([
                    "/etc/nginx/.htpasswd", "f", "admin", "alice@example.com", "${FILE}", "-v", "u:x", "'my file'",
                    "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "a=b", "https://a.io/x", "\"admin\"", "'/etc/x'",
                    "\"\"",
                    "\"a b\"", "[redacted-email]", "\\\"admin\\\"", "\"\"https://a.io/x\"",
                ])
        }
        return line + pick(["", " "])
            + pick(["hunter2", "'correct horse'", "\"a b\"", "-x", "", "[redacted-secret]", "https://a.io/x"])
    }

    /// A command word (or none, or a near miss), an option and its blanks, and a value.
    public mutating func commandOption() -> String {
        let command = pick([
            "sshpass ", "docker login -u bob ", "az login ", "mysql -u root ", "mysqldump -uroot ", "/usr/bin/mysql ",
            "7z a ", "redis-cli -h r ", "ldapsearch -x ", "ldapmodify ", "zip -r ", "unzip ", "openssl enc ",
            "keytool -list ", "jarsigner ", "", "", "ssh ", "mkdir ", "x-mysql ", "--login ", "mysql.", "login:",
            "\"sshpass\", \"", "\\tsshpass\\t", "sshpass", "LOGIN ", "redis-cli\t", "mongosh -u admin ", "mysqlsh ",
            "http ", "https POST a.io ", "smbclient //srv/x ", "sqlcmd -S db ", "httpie ", "mongo",
            // lftp's `-u user,password` (the twenty-first session).
            "lftp ", "lftp -e \"open ", "lftp sftp://h ", "xlftp ",
            // Escaped white space right before the option (a command in a JSON string).
            "sshpass \\\\\\n\\t", "mysqldump\\n-uroot\\n", "lftp\\t", "zip\\r", "ldapsearch\\\\t",
            // A command's word right after an escaped line break or tab (a script in a JSON string).
            "set -e\\nsshpass ", "cd /x\\nmysql ", "a\\tlftp ", "\\rzip -r ", "\\\\nsshpass ", "\\nxsshpass ",
            // Argument lists in a JSON string, and a registry login after an escape (the
            // twenty-second session).
            "[\\\"sshpass\\\", \\\"", "[\\\"lftp\\\",\\\"", "[\\\"mysql\\\", \\\"", "[\\\"ssh\\\", \\\"",
            #"[\\\"sshpass\\\", \\\""#, #"[\\\"zip\\\",\\\""#,
            "\\ndocker login ", "\\tpodman login -u a ", "\\nxdocker login ", "-docker login ",
            // More commands (the twenty-second session).
            "ssh-keygen -t ed25519 ", "ssh-keygen -p ", "unrar x ", "rar a ", "ldappasswd -x ", "useradd -m ",
            "usermod ",
            "ssh-add ", "https://h/htpasswd -nb a ", #"[\\\"lftp\\\", \\\""#, "rar a -r ",
        ])
        let option = pick([
            "-p", "-p", "-a", "-w", "-P", "-k", "-storepass", "-keypass", "-srcstorepass", "-deststorepass",
            "-srckeypass", "-destkeypass", "-pass", "-K", "-u", "--p", "-ks", "-keypas", "-storepassx", "-U", "-Ux",
            // Flags combined before ldap's `-w` and zip's `-P` (the twenty-first session), at and past
            // 8, and flags that take an argument or belong to the other command.
            "-xw", "-xLLLw", "-ZZxw", "-rP", "-r9P", "-qoP", "-DxW", "-bP", "-xP", "-rw", "-xxxxxxxxw", "-xxxxxxxxxw",
            "-pP", "-aP", "-kP", "-9P", "-9rP", "-xQw", "-IVw", "-N", "-s", "-qP", "-hp",
        ])
        let blanks = pick([
            " ", " ", "", "\t", "  ", " \t", "\u{00A0}", "=", "\\\", \\\"", "\\\",\\\"", "\", \"", #"\\\", \\\""#,
            #"\\\", \""#,
        ])
        let value = pick([
            "hunter2", "'correct horse'", "\"\"https://a.io/x y\" rest", "\\\"\"https://a.io/x\" rest", "\"a b; c\"",
            "\\\"x y\\\"", "-v", "--batch", "22", "", "[redacted-secret]",
            "https://a.io/x", "\"https://a.io/x y\"", "\\thttps://a.io/x", string(Self.base64, 1...40), "{\"a\":1}",
            "a:b", "$PASS",
            "pass:hunter2", "bob%hunter2", "bob:hunter2", "bob,hunter2", "'bob,correct horse'", "\"bob,\"", "bob,",
            "-bob,x", "bob,pa,ss", "\\\"bob,x y\\\"", "bob, x", "\"bob, x\"", "b@c.io,x", "[redacted-email],x",
        ])
        let before = pick(["", "", "+ ", "$ ", "\t", "\\n", "'", "\"", "x", "run: "])
        return before + command + option + blanks + value
            + pick(["", " db", " ssh h", " -b dc=x", " \\", "'", "\\\"]", "\\\", \\\"h\\\"]", #"\\\"]"#])
    }
}
