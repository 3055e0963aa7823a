import FuzzSupport
@_spi(EngineOracle) import PinKit

/// The log sanitizer: idempotent, a seeded secret of every leak family never survives, and the
/// engine agrees byte for byte with the previous one (kept as an oracle while the scanner is
/// rebuilt: each rule's regions searched afresh, the rules applied by recursion).
@_cdecl("FuzzSanitizer_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data ?? UnsafePointer(bitPattern: 1)!, size) }
}

/// One line per leak family (issue 15 §3), each secret marked `zq7SEED`. Each sits on its own
/// line: no rule matches across a line break, so the fuzzed bytes around cannot shelter it.
let seeded: [(line: String, secret: String)] = [
    ("Authorization: Bearer zq7SEEDtoken", "zq7SEEDtoken"),
    ("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "0f1e2d3c-4b5a"),
    ("https://admin:pa'zq7SEEDpass@db.example.com/v1/items?filter[owner]=alice&access_token=zq7SEEDquery", "zq7SEED"),
    ("\"https:\\/\\/api.example.com\\/v1\\/users\\/42?session=zq7SEEDjson\"", "zq7SEEDjson"),
    ("redirect_uri=https%3A%2F%2Fclient.example.com%2Fcb%3Fcode%3Dzq7SEEDpct", "zq7SEEDpct"),
    ("redis://:zq7SEEDredis@10.0.0.5:6379/0 mongodb://admin:zq7SEEDmongo@mongo/db", "zq7SEED"),
    ("Authorization: Basic zq7SEEDbasic== Cookie: session=zq7SEEDcookie", "zq7SEED"),
    ("{\"client_secret\":\"zq7SEEDjsonkv\",\"password\": \"zq7SEEDpw\"} api_key=zq7SEEDkey", "zq7SEED"),
    ("Bearer\u{00A0}zq7SEEDnbsp Bearer%20zq7SEEDpct20 Bearer \"zq7SEEDquoted\" Bearer abc=zq7SEEDsplit", "zq7SEED"),
    ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq7SEEDb64", "zq7SEEDb64"),
    ("tok\u{200B}zq7SEEDinvisible\u{200B}abcdefghijklmnopqrstuvwxyz", "zq7SEEDinvisible"),
    ("jözq7SEEDmail@bücher.de root.zq7SEEDroot@10.0.0.1", "zq7SEED"),
    ("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAeyJhbGciOi.eyJzq7SEEDjwt.sig", "zq7SEEDjwt"),
    // The seventh session's leak hunt.
    ("login password=Optional(\"zq7SEEDopt\") {\"token\"=>\"zq7SEEDrocket\"}", "zq7SEED"),
    ("user[password]=zq7SEEDform&password[]=zq7SEEDarr&n=1", "zq7SEED"),
    ("Cookie: theme=\"dark\"; session=zq7SEEDqcookie", "zq7SEEDqcookie"),
    ("q=Bearer+zq7SEEDplus&x=1 key sk.eyJ1IjoiZXhhbXBsZSIsImEiOiJjazEyMyJ9.zq7SEEDtwosegment", "zq7SEED"),
    ("{'password': 'it\\'s zq7SEEDsq'} password=\u{00A0}zq7SEEDnbspval", "zq7SEED"),
    // The eighth session: form keys with an index, nested arrays and encoded brackets.
    ("password[0]=zq7SEEDidx&user[password][]=zq7SEEDnest&user%5Bpassword%5D=zq7SEEDenc&n=1", "zq7SEED"),
    ("form=user%3Dbob%26password%3Dzq7SEEDpct3d body=%7B%22token%22%3A%22zq7SEEDpctjson%22%7D", "zq7SEED"),
    ("next=https%253A%252F%252Fapi.example.com%252Fcb%253Ftoken%253Dzq7SEEDtwice", "zq7SEEDtwice"),
    // The ninth session: a JSON-escaped base64 secret, a percent-encoded email.
    ("{\"k\":\"wJalrXUtnFEMI\\/K7MDENG\\/bPxRfiCYzq7SEEDesc64\"}", "zq7SEEDesc64"),
    ("login email=alice.zq7SEEDpctmail%40example.com ok", "zq7SEEDpctmail"),
    // The tenth session: constructors and Python string prefixes before a value, an unquoted
    // value ended by an escaped line break.
    ("Config { password: Some(\"zq7SEEDsome\"), token: Ok(Secret(\"zq7SEEDok\")) }", "zq7SEED"),
    ("{u'password': u'zq7SEEDpyu', 'token': rb'zq7SEEDpyrb'} password: Just \"zq7SEEDjust\"", "zq7SEED"),
    ("{\"h\":\"X-Api-Key: k3y\\r\\nCookie: sid=zq7SEEDcrlf\\r\\nHost: a.example\"}", "zq7SEEDcrlf"),
    // The eleventh session: a quoted value after a URL an escaped line break or tab ended, an
    // email written with `\u` escapes.
    ("{\"token\":\"see https://a.io/x\\nzq7SEEDresume\"}", "zq7SEEDresume"),
    ("{\"m\":\"u=https://a.io/cb\\tCookie: sid=zq7SEEDtab\"}", "zq7SEEDtab"),
    ("{\"email\": \"j\\u00f6rg.zq7SEEDuesc@m\\u00fcller.de\"}", "zq7SEEDuesc"),
    // The tenth session: nginx's `\x22` quotes, an unlabelled Basic token.
    ("\"{\\x22password\\x22:\\x22zq7SEEDnginx\\x22}\"", "zq7SEEDnginx"),
    ("\"curl/8.5.0\" \"Basic zq7SEEDbasic==\"", "zq7SEEDbasic"),
    // The eleventh session: quotes in other spellings, `:=`, a scheme's token after `%3D`.
    ("{\"msg\":\"{\\u0022password\\u0022:\\u0022zq7SEEDu0022\\u0022}\"}", "zq7SEEDu0022"),
    ("data-config=\"{&quot;token&quot;:&quot;zq7SEEDquot&quot;}\"", "zq7SEEDquot"),
    ("info,\"{\"\"password\"\":\"\"zq7SEEDcsv\"\"}\",api", "zq7SEEDcsv"),
    ("body: '{\\'password\\': \\'zq7SEEDrepr\\', \"n\": 1}'", "zq7SEEDrepr"),
    ("PASSWORD := zq7SEEDgo", "zq7SEEDgo"), ("data=token%3DBearer%20zq7SEEDpct%26n%3D1", "zq7SEEDpct"),
    // The ninth session: strings escaped once and twice that end in an escaped backslash, a Python
    // string holding both quotes in a JSON string.
    (
        #"{\"token\":[\"C:\\\\\", \"]\", \"zq7SEEDrun\"]}"#
            + #" {\\\"token\\\":[\\\"C:\\\\\\\\\\\", \\\"]\\\", \\\"zq7SEEDrun2\\\"]}"#,
        "zq7SEED"
    ),
    (#"{"msg": "token=['it\\'s \"ok\"]', 'zq7SEEDpy'] host=example.com"}"#, "zq7SEEDpy"),
    // The tenth session: a scheme's quoted token padded with blanks, an escaped empty string
    // before a header's value.
    ("Authorization: Basic \" zq7SEEDpadded\"", "zq7SEEDpadded"),
    ("x Bearer ' zq7SEEDpadbearer ' token=Bearer < zq7SEEDpadval >", "zq7SEED"),
    (#"{"h":"Cookie: \"\"sid=zq7SEEDescempty"}"#, "zq7SEEDescempty"),
    (#"{"msg":"x Bearer \" zq7SEEDescbearer\" token=Bearer \"zq7SEEDescval\""}"#, "zq7SEED"),
    // The tenth session: `/` percent-encoded in a base64 secret, an email encoded twice, a
    // percent-encoded non-ASCII domain, an email glued to a token on either side.
    ("form=x%26aws%3DwJalrXUtnFEMI%2FK7MDENG%252FbPxRfiCYzq7SEEDpct2f", "zq7SEEDpct2f"),
    ("user=zq7SEEDtwicemail%2540example.com to=zq7SEEDutf%40b%C3%BCcher.de", "zq7SEED"),
    ("bob@example.com-wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq7SEEDglued", "zq7SEEDglued"),
    ("wJalrXUtnFEMI/K7MDENG/zq7SEEDbefore+bob@example.com", "zq7SEEDbefore"),
    // The eleventh session: a cookie holding JSON in running text, a header array member, a
    // name-value pair (HAR, Kubernetes env), plain and escaped once.
    ("Cookie: prefs={\"theme\":\"dark\"}; sid=zq7SEEDjsoncookie", "zq7SEEDjsoncookie"),
    ("{\"Authorization\":[\"Bearer zq7SEEDarray\"],\"X-Host\":[\"a.example\"]}", "zq7SEEDarray"),
    (
        #"{"env":[{"name":"DB_PASSWORD","value":"zq7SEEDpair"}]} {\"name\":\"Cookie\",\"value\":\"sid=zq7SEEDpair2\"}"#,
        "zq7SEED"
    ),
    // The eleventh session: keys outside the old list, a tuple, a backtick string in a structure.
    ("SECRET_KEY=zq7SEEDdjango Pwd=zq7SEEDodbc; passphrase=zq7SEEDphrase sessionid=zq7SEEDsid", "zq7SEED"),
    ("{'password': ('alice', 'zq7SEEDtuple')} secret={ note: `it's \"q\" ]`, v: 'zq7SEEDtick' }", "zq7SEED"),
    // The fourteenth session: markup (an XML element, CDATA, a multipart part), a Go header map,
    // Python's and Go's name-value pairs, Gson's `\u003d`, a full-width `＝`, `+` around `%3D`, a
    // header in a string holding quotes of another kind.
    (
        ##"<soap:Body><wsse:Password Type="#PasswordText">zq7SEEDxml</wsse:Password><db_password><![CDATA[zq7SEEDcdata]]></db_password>"##,
        "zq7SEED"
    ),
    (
        #"{"body":"--X\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nzq7SEEDpart\r\n--X--"}"#,
        "zq7SEEDpart"
    ),
    (
        "map[Cookie:[sid=zq7SEEDgomap] Host:[a.io]] {'name': 'DB_PASSWORD', 'value': 'zq7SEEDpy'} &EnvVar{Name:DB_PASSWORD,Value:zq7SEEDgo,}",
        "zq7SEED"
    ),
    (
        #"{"body":"user\u003dalice\u0026password\u003dzq7SEEDgson\u0026r\u003d1"} password＝zq7SEEDwide token=a+%3D+zq7SEEDplus"#,
        "zq7SEED"
    ),
    (#"headers: 'Cookie: prefs={"theme":"dark"}; sid=zq7SEEDinner' host=a.io"#, "zq7SEEDinner"),
    // The fifteenth session: a value in a spelled quote resumes after a URL in it; runs of
    // backslashes, a pin body escaped twice, nginx's `\x22` beside a token (the speed work's inputs).
    (
        #"&quot;Cookie&quot;:&quot;ret=https://a.io/; sid=zq7SEEDspelled&quot; \u0022token\u0022:\u0022a https://b.io/x zq7SEEDu22\u0022"#,
        "zq7SEED"
    ),
    (
        #"{"log":"{\"pin\":\"sha256\\\/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCDEFG=\"}"} \\\\\\/x \x22Bearer zq7SEEDnginxBearerToken0123\x22"#,
        "zq7SEED"
    ),
    ("data=password%253Dzq7SEEDtwice%2526next%253D1 q=%2522token%2522%253A%2522zq7SEEDquoted%2522", "zq7SEED"),
    (
        #"exec: mysql --password zq7SEEDoption --db-password 'zq7SEED q' -p x send: 'AUTH PLAIN AGzq7SEED0sasl=\r\n'"#,
        "zq7SEED"
    ),
    // The sixteenth session: Unicode spaces and invisible separators as JSON escapes (`json.dumps`).
    (
        #"{"msg": "sent\u00a0Bearer\u00A0zq7SEEDnbsp0123", "q": "{'password':\u3000'zq7SEEDblank'}", "k": "AbCdEf0123\u200bzq7SEEDzwsp456789qrstUVwx", "p": "token\u2009=\u2009zq7SEEDeq"}"#,
        "zq7SEED"
    ),
    // The seventeenth session: a key word glued into a base64 secret takes the secret's head, also
    // after an escaped line break or `\u0026` (which stay whole).
    (
        "wJalrXUtnFEMI/K7MDENG/zq7SEEDheadPwd=zq7SEEDvalue9 (x2Y+aB3cD4eF5gH6iJ7kL8mzq7SEEDsecsecret:zq7SEEDcolon)",
        "zq7SEED"
    ),
    (
        #"{"msg":"password=abc\nQ1234Xyz/abcdefzq7SEEDesc0123token=zq7SEEDafter\u0026bK9s+0aB3cD4eF5gH6iJ7kzq7SEEDuApikey=x"}"#,
        "zq7SEED"
    ),
    // The eighteenth session: a raw Windows path in a query, its backslashes before `t`, `n`, `r`,
    // does not end the URL where a query parameter follows.
    (
        #"GET https://a.io/dl?path=C:\temp\x&sig=zq7SEEDwin (see https://b.io/x?p=\\srv\new\r1&amp;s=zq7SEEDamp)"#,
        "zq7SEED"
    ),
    // Plain members between a pair's name and its value (AWS SSM, sorted keys, Go's `%+v`).
    (
        #"{"Parameter":{"Name":"/prod/db/password","Type":"SecureString","Value":"zq7SEEDssm"}} {Name:DB_PASSWORD Kind:x n:1 Value:zq7SEEDgo}"#,
        "zq7SEED"
    ),
    // Members on lines of their own: pretty-printed JSON, YAML, and the same escaped in a string.
    (
        "{\n  \"name\": \"DB_PASSWORD\",\n  \"value\": \"zq7SEEDjson\"\n}\nenv:\n- name: API_TOKEN\n  type: s\n  value: zq7SEEDyaml\n"
            + #"{"msg":"- name: api_key\r\n  value: zq7SEEDesc"}"#
            + " [ { name: 'API_TOKEN', type: 'string', value: 'zq7SEEDnode' } ] {name: \"DB_PASSWORD\", value: zq7SEEDrb}"
            + " PHPSESSID=zq7SEEDphp curl -u alice:zq7SEEDcurl --user='bob:zq7SEEDuser' \t-U p:zq7SEEDproxy",
        "zq7SEED"
    ),
    // A command's password option (after its word), a user option's quoted password with blanks,
    // and curl's `-u` glued to the name.
    (
        "+ sshpass -p zq7SEEDssh ssh h; docker login -u ci -p 'zq7SEEDa zq7SEEDb' r.io; mysqldump -uroot -pzq7SEEDmy db"
            + " redis-cli -a zq7SEEDredis ping; keytool -list -storepass zq7SEEDks; 7z a -pzq7SEED7z x.7z"
            + #" curl --user "bob:zq7SEEDc zq7SEEDd" -ualice:zq7SEEDglued -u"al:zq7SEEDq zq7SEEDr""#,
        "zq7SEED"
    ),
    // The twenty-third session: a password in a SQL statement, bare, JSON-escaped and over lines.
    (
        "CREATE USER 'app'@'%' IDENTIFIED BY 'zq7SEEDmy'; CREATE USER scott IDENTIFIED BY zq7SEEDora;"
            + " ALTER ROLE app WITH LOGIN PASSWORD 'it''s zq7SEEDpg'; SET PASSWORD FOR 'b'@'h' = \"zq7SEEDset\""
            + #" {"sql":"ALTER USER a IDENTIFIED WITH x BY \"zq7SEEDjs\\\"on\""} wrong password 'zq7SEEDmsg'"#,
        "zq7SEED"
    ),
    // Its review: escaped blanks between the words, Oracle's verifier, a bracketed statement, and
    // an account longer than 128 bytes.
    (
        #"{"sql":"CREATE USER a\nIDENTIFIED BY\n\t'zq7SEEDesc'"} ALTER USER a IDENTIFIED BY VALUES 'S:zq7SEEDora'"#
            + " SQL [CREATE USER a IDENTIFIED BY zq7SEEDbr]; SET PASSWORD FOR " + String(repeating: "\u{E9}", count: 70)
            + " = 'zq7SEEDlong'",
        "zq7SEED"
    ),
    // The second review: doubled quotes (CSV, a SQL string), blanks escaped twice, quoted plugin
    // names, MySQL's syntax error.
    (
        #""Query","ALTER USER b IDENTIFIED BY ""zq7SEEDcsv""",0 EXECUTE IMMEDIATE 'ALTER USER a IDENTIFIED BY ''it''''s zq7SEEDpl'''"#
            + #" {"log":"{\"sql\":\"ALTER USER b\\nIDENTIFIED\\nBY\\n'zq7SEEDjj'\"}"} IDENTIFIED WITH `p` BY 'zq7SEEDbt'"#
            + " near 'IDENTIFIED BY 'zq7SEEDnear'' at line 1",
        "zq7SEED"
    ),
    // The third review: a plugin name in doubled quotes, T-SQL's `PASSWORD = ''x''`.
    (
        "SET @s = 'CREATE USER ''b'' IDENTIFIED WITH ''caching_sha2_password'' BY ''zq7SEEDprep''';"
            + " EXEC('CREATE LOGIN a WITH PASSWORD = ''zq7SEEDtsql'', CHECK_POLICY = OFF')"
            + #" {"line":""Query","ALTER USER a IDENTIFIED BY ""zq7SEEDcsvjson""""}"#,
        "zq7SEED"
    ),
]

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let once = LogSanitizer.redact(bytes: bytes)
    precondition(LogSanitizer.redact(bytes: once) == once, "redaction is not idempotent")
    precondition(LogSanitizer.redactWithPreviousEngine(bytes: bytes) == once, "the engines disagree")
    let half = size / 2
    var seededBytes = Array(bytes[..<half])
    for (line, _) in seeded { seededBytes += [10] + Array(line.utf8) }
    seededBytes += [10] + Array(bytes[half...])
    let redacted = LogSanitizer.redact(bytes: seededBytes)
    precondition(LogSanitizer.redact(bytes: redacted) == redacted, "redaction with seeded secrets is not idempotent")
    for (_, secret) in seeded {
        let needle = Array(secret.utf8)
        // The fuzzed bytes may spell a marker themselves (not a secret there); only more is a leak.
        precondition(count(redacted, needle) <= count(bytes, needle), "a seeded secret survived: \(secret)")
    }
    return 0
}

func count(_ haystack: [UInt8], _ needle: [UInt8]) -> Int {
    guard haystack.count >= needle.count else { return 0 }
    var found = 0
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if haystack[start..<start + needle.count].elementsEqual(needle) { found += 1 }
    }
    return found
}
