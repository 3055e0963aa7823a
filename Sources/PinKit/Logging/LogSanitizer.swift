/// Removes secrets from log text. Every log line passes through it; `pinctl redact` exposes it.
///
/// The rules, in order. A rule sees only the text earlier rules left, and each replaced span is
/// final (a credential value stops where a URL starts, so the URL's host stays).
/// "White space" below is ASCII white space and control characters; "Unicode spaces" are U+0085,
/// U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and U+3000; "invisible
/// separators" are U+00AD, U+200B–U+200D, U+2060 and U+FEFF, which count as part of the run they
/// sit in (tokens, UUIDs, bearer tokens, email addresses). A JSON escape, `\u` and four hex digits
/// in either case (Python's `json.dumps` writes every non-ASCII character so: `\u00a0`, `\u200b`),
/// of a Unicode space is that space wherever rules 2 and 3 take one as a blank or a separator (the
/// blanks around and after a key's separator, inside a scheme's quotes, after `bearer` and
/// `basic`), and of an invisible separator that separator wherever rules 3, 5 and 7 take one
/// inside a run (one character, its digits and letters none; no match of rules 5 and 7 starts
/// after its `\`, as none starts inside a `%2F`; a `\` may stand before its `\`: `\\u200b`); rule 4
/// reads both as any other escaped non-ASCII character. Elsewhere an escaped space is text: a URL
/// in running text does not end at `\u00a0` (it runs on to what ends it, and its path goes with
/// it, which keeps nothing a reader could use), nor does an unquoted value (it runs on too).
///
/// 1. **URLs** of any scheme → scheme, separator and host: `scheme://`, JSON-escaped
///    `scheme:\/\/`, percent-encoded `scheme%3A%2F%2F` and encoded twice `scheme%253A%252F%252F`
///    (any case). The scheme is the run of
///    `[A-Za-z0-9+.-]` before the separator when it is 1–32 characters and starts with a letter
///    (otherwise the URL starts at the separator). The host follows the last `@` (or `%40`) of
///    the authority (which ends at `/ ? # \`, `%2F %3F %23` or `%252F %253F %2523`; `%2540` is an
///    `@` too): an IPv6 literal in brackets (holding no other `[`), or
///    `[A-Za-z0-9._~%-]` and non-ASCII characters (no `%` in the percent-encoded form), without
///    trailing dots. No host: the scheme and separator stay and `[redacted-url]` takes the
///    host's place (`https://[redacted-url]`). Where the URL ends depends on what is before it:
///    after `"`, `'` or a backtick, at the same quote closing the string (for `"` and `'`, a
///    backslash escapes, and the escaped backslashes before the closing quote stay outside);
///    after `\"`, at the next `\"`; both also at a line break. In running text, at
///    white space, a Unicode space, a closing bracket `)]}>` with no opening partner inside the
///    URL, a quote (or `\` and a quote) followed by white space, one of `,;}])>` or the end, or
///    an escaped line break `\r` or `\n` (a header dump in a JSON string) or an escaped tab `\t`,
///    unless the run of path bytes after it ends at `&` (or `&amp;`), a parameter name and `=`
///    (a raw Windows path in a query, `?path=C:\temp\x&sig=…`, goes whole); trailing `.,;:!?`
///    stay outside. Spaces (and `\t`) right after `bearer` or `bearer:` (not inside a word) in the
///    path, query or fragment do not end it (`?auth=Bearer tok` goes whole).
/// 2. **Credentials**: a key `authorization`, `cookie` (headers) or `password`, `passwd`, `pwd`,
///    `passphrase`, `secret`, `token`, `api_key`, `api-key`, `apikey`, `secret_key`, `secret-key`,
///    `secretkey`, `private_key`, `private-key`, `privatekey`, `access_key`, `access-key`,
///    `accesskey`, `sessionid`, `session_id`, `sessid`, `credentials` (also as the end of a longer
///    word, such as `access_token`, `client_secret`, `Set-Cookie`, `DB_PWD`, `aws_secret_access_key`,
///    `PHPSESSID`), or
///    `pass` where it is no word's tail (`DB_PASS`, `smtpPass`, `&pass=`, not `bypass`), any ASCII case,
///    or a name–value pair's `value` (any case; HAR, Kubernetes `env`:
///    `{"name":"DB_PASSWORD","value":"x"}`, Python's `{'name': 'DB_PASSWORD', 'value': 'x'}`, Go's
///    `{Name:DB_PASSWORD Value:x}`, AWS SSM's `{"Name":"/prod/db/password","Type":"SecureString",
///    "Value":"x"}`) after a `name` or `key` member whose string is one of those keys after any run
///    of `[A-Za-z0-9_./-]`, right before it or with up to four plain members between them (a key
///    of 1–32 `[A-Za-z0-9_.-]` other than `value`, a string of up to 64 `[A-Za-z0-9 _.+/@:-]` or a
///    scalar of 1–64 `[A-Za-z0-9_.+/@-]`) (each quote `"`, each `\"`, each `'`, or none: then
///    the member's name not right after an `[A-Za-z0-9_.-]` or a `]`, but for the `n` or `t` of an
///    escape `\n` or `\t`, the members apart by a `,` or one space, and each string unquoted or in quotes of its
///    own, `"` or `'`, as JavaScript's `util.inspect`, Ruby's `inspect` and YAML write one:
///    `{ name: 'DB_PASSWORD', value: 'x' }`; a space at most around `:` and `,`; or the members on
///    lines of their own, as
///    pretty-printed JSON and YAML write them: a `,` (a space at most before it; unquoted, none
///    needed), a line break `\n` or `\r\n`, real or escaped, and up to 64 spaces or tabs (a tab also
///    escaped, `\t`); a value
///    key as `password` is, not after a percent-encoded separator), then
///    up to four form suffixes
///    `]`, `[]` or `[` + up to six digits + `]`, where `[` may be `%5B` and `]` `%5D`, any case
///    (`user[password]`, `password[]`, `password[0]`, `user[password][]`, `user%5Bpassword%5D`; a
///    placeholder's own `]` is none), optionally a closing quote (`"` or `'` after 0–15 backslashes,
///    as JSON escaped up to four times writes `"` and Python's `repr` `\'`, a doubled `""` or `''` as
///    CSV and SQL write one, backtick, `%22`, `%27`, nginx's `\x22`, `\x27` (`x` in either case),
///    JSON's `\u0022`, `\u0027` (.NET, Gson, Python's `ensure_ascii`), HTML's `&quot;`, `&apos;`,
///    `&#34;`, `&#39;`, `&#x22;`, `&#x27;`),
///    blanks, `=`, `=>`, `:` or `:=` (or JSON's escape of `=` or `:`, `\u003d` or `\u003a`, the letter
///    in either case, as Gson's default HTML-safe escaping writes `=`; or a full-width `＝` or `：`,
///    U+FF1D or U+FF1A, as CJK input methods type them), blanks, openers the value sits in (`Optional(`; a constructor, an
///    ASCII upper-case letter, up to 31 `[A-Za-z0-9_]` and `(`, right before what a value opens
///    with: a quote, `\`, `[`, `{`, `<`, an upper-case letter or a Python string prefix and its
///    quote, as in Rust's `Some("…")`, `Ok(Secret("…"))`; Haskell's `Just` and blanks before one;
///    `<`; each with blanks after it: a capitalised word and `(` before anything else, as in
///    `Summer(2024)`, is the value's own text and goes; `Hunter2("x")` keeps `Hunter2(`), where blanks are spaces, tabs, Unicode spaces and ANSI colour codes
///    (`ESC [ [0-9;]{0,16} m`). Then a `{`, `[` (not a placeholder's) or `(` starts a structure (a
///    JSON object or array, a Python dict, list or tuple): what is inside it up to the bracket that
///    closes it (any of `}` `]` closes any of `{` `[`, and in a structure a `(` opened, any of `} ] )`
///    any of `{ [ (`; backtick strings, to the next backtick, `"` and `'` strings, where a backslash escapes, and
///    strings opened by e (1–15) backslashes and `"`, which a run of e + j(2e + 2) backslashes and
///    `"` closes, are passed whole: JSON escaping applied k times writes a quote as 2^k − 1
///    backslashes and `"` and a backslash as 2^k, so a run before `"` is escaped backslashes and a
///    quote, which closes a string of depth k only when the backslashes are even in number and the
///    quote is of depth k; in a `'` string an even run of backslashes (two or more) before a `'`
///    leaves the structure open, as it ends a plain Python string and is a quote inside a
///    JSON-escaped one; a `'` right after a letter or digit (ASCII, or a non-ASCII character other
///    than a Unicode space or an invisible separator) is an apostrophe (`{user's x}`, `{josé's x}`),
///    not a string; four levels at most; no URL inside) goes, or, when it does not close so,
///    everything after the
///    opener to the line's end, URLs included; a header's structure after a key with no closing
///    quote always takes the rest of the line (`Cookie: {"a":1}; sid=x`, `Authorization: {} Basic x`;
///    after a quoted key, a JSON member's `{"Cookie":["a"],"n":1}`, or a member of Go's header map, the
///    key right before `:[` and no `]` or `}`, its name, the key and up to 24 `[A-Za-z0-9-]`, right
///    after `map[`, `] ` or a placeholder and `[` (a bearer token or a token that took the `map`:
///    `Bearer headers=map[…` leaves `[redacted-bearer][…`, which a second pass must read as the
///    first did), `map[Cookie:[sid=x] Host:[a.io]]`, it closes as a value's does). Otherwise an
///    optional opening quote (`"` after 0–15 backslashes, `'`, backtick; one or two of `u b r f`,
///    any case, right before a `"` or `'` are a Python string prefix, kept with it: `u'…'`, `rb"…"`,
///    and the value is the quoted one, also when empty; after a header's key with
///    no closing quote, an empty `""`, `''`, two backticks or `\"\"` (the same 1–15 backslashes
///    before each quote) are passed over and the unquoted value after them is the value:
///    ``Cookie: ``sid=x``, `Cookie: \"\"sid=x`, but `{"cookie":"","u":"b"}` stays); the value →
///    `[redacted-secret]`. A value opened by a quote in another spelling (`\x22`, `\x27`, `x` in either
///    case; `\u0022`, `\u0027`, `&quot;`, `&apos;`, `&#34;`, `&#39;`, `&#x22;`, `&#x27;`; `\'` not right
///    before a URL; after a key whose closing quote is doubled, the same doubled quote not right
///    before a URL: `""password"":""x""`) runs to the same
///    escape, a line break, or before the next URL (and the quote right before one), and resumes
///    after it as a quoted value does (below). A quoted value runs to its closing quote (after backslashes, a run that
///    closes it as in a structure, whose escaped backslashes are the value's; or a line break); an
///    unquoted header value to a line break (also `\r` or `\n` written as escapes or nginx's `\x0D`,
///    `\x0A`, any case, or a `\` right before `[redacted-email]` or `[redacted-token]`, which is what
///    rules 4 and 7 leave of one when their match starts at its letter, or `\x` or `\x0` right before
///    `[redacted-uuid]`, what rule 5 leaves of nginx's one), or, when the header sits in a string (a
///    quote or an escaped line break, `\n`, `\r`, `\x0A`, `\x0D`, right before its name: the key and
///    up to 24 letters and `-` before it, as in `"Authorization: …"` or `\r\nSet-Cookie: …`; that
///    quote or escape goes out with the key, kept), to that string's own closing quote: the same
///    quote (`"`, `'` or backtick) at the same depth, after a run of e + j(2e + 2) backslashes where
///    e (0–15) stand before the opening quote (for e = 0 an even run, whose escaped backslashes are
///    the value's; of a longer run the j(2e + 2) are), followed by what may follow a closing quote
///    in running text; a run of backslashes and a quote of another kind or depth is the value's,
///    closing nothing (`{"h":"Cookie: p={\"t\":1}; sid=x"}`, `'Cookie: p={"t":"d"}; sid=x'`, with
///    16 or more backslashes before the quote the header is in running text); after an escaped line
///    break with e backslashes before it the quote is unknown, and the first quote of any kind at
///    depth e ends the value when it closes, while one that does not close (`\r\nCookie: p={"a":"b"};
///    sid=x`: no string escaped once holds a bare `"`) leaves the header in running text from there;
///    not a `"`, `\"` or `'` after the
///    value's scheme names, each followed by blanks, and before blanks and a byte that does not end
///    an unquoted value: it opens the scheme's token, `Authorization: Basic " x"`), an inner string included (a `"`
///    or `'` string after `=`, `[`, `(` or `{`, as in `theme="dark"` or `['X-Token' => 'x']`, or a
///    `\"` string after `=`, not closed by a quote right before a URL, which is that URL's
///    context); a header in running text has no string to close, and only the quote (or `\` and a
///    quote) right before a URL ends its value (`Cookie: prefs={"theme":"dark"}; sid=x` goes whole);
///    another unquoted value to white space, a Unicode space, one of ``&,;"'<>)]}` ``
///    or an escaped line break as a header's value ends at one or a JSON escape `\u00XX` of a byte
///    that ends an unquoted value (`XX` one of the percent-encoded form's stops below: Gson's
///    `\u0026` for `&`, `\u0027`, `\u003c`, `\u0020`; hex letters in either case) (neither at its first byte, but right after a
///    placeholder it starts with: a second pass must end it where the first did): a header block
///    or a config dumped into a JSON string (`"X-Api-Key: k\r\nCookie: sid=x"`) is common, and a
///    value that ran over `\r\n` took the next line's name and left its value; a plain secret with
///    a literal `\n` in it keeps what follows it (`password=ab\ncd` → `[redacted-secret]\ncd`)
///    (`Bearer` or `Basic`, any case, then blanks and its token as rule 3 takes one: more names,
///    then a run, or one in `"…"`, `'…'`, `\"…\"` (1–15 backslashes, the same before each quote)
///    or `<…>` with blanks after the opener and before the closer (its closing quote not one right
///    before a URL) and the run glued after the closer: that too).
///    A value other than a structure stops at the next URL, and before the quote (with the
///    backslashes before it, up to 15) right before one (so the URL keeps its host and its
///    context). A header's unquoted value or a quoted value (not one whose opening quote is the
///    URL's context: the URL's end closes it; a quote in another spelling is no URL's context, and
///    a value it opens resumes also when it is right before the URL) then resumes after the URL: after the trailing
///    `.,;:!?` rule 1 left out and what ended the URL (in running text white space other than a
///    line break, a Unicode space, a closing bracket, `\t`, or in a quoted value an escaped line
///    break `\r`, `\n` or `\r\n`, which it runs over, or in a quoted value or a header's a quote
///    that does not close the value and the byte after it: in running text any, in a string one that
///    is not its own at its depth, the one backslash after the URL's end counted, in a value opened
///    by a quote in another spelling any but, after `\'`, a `\'` and, after a doubled quote, the
///    bare quote (the URL may have taken the first of the two); after a quote or
///    `\"`, the same closing it), to its
///    own end (a spelled value's: the same spelling, or a line break) or the next URL, where it
///    resumes again (`&quot;Cookie&quot;:&quot;ret=https://a.io/; sid=x&quot;` →
///    `&quot;Cookie&quot;:&quot;[redacted-secret]https://a.io; [redacted-secret]&quot;`; a header's rest ends at an escaped line break
///    it starts with: `Cookie: r=https://a.io/x'}\nHost: a.io` keeps `\nHost: a.io`); not at a line break, the end, or a quote
///    that ends a URL in running text and closes the value or a header's string
///    (`Set-Cookie: n=https://a.io/; sid=x` → `Set-Cookie: [redacted-secret]https://a.io; [redacted-secret]`);
///    an empty value before the URL resumes too. An empty value, or one that already is a
///    placeholder and nothing more, is left alone (one that only starts with a placeholder, as
///    `password=[redacted-token]hunter2`, is a value like any).
///    The separator may be percent-encoded, `%3D` or `%3A` (any case; text around it is encoded
///    too, and `%20`s or `+`s, form encoding's space, may come before it): then `%20`s and `+`s, optionally `%22` or `%27`; a value so quoted runs to the same encoded
///    quote, an unquoted one to where a byte that ends an unquoted value is encoded (`%00`–`%20`,
///    `%22 %26 %27 %29 %2C %3B %3C %3E %5D %60 %7D %7F`, any case; a header's value: `%0A`,
///    `%0D`), and either also ends where an unquoted value ends or at a `%` without two hex
///    digits (`password%3Dx%26n%3D1`, `%22password%22%3A%22x%22`); an unquoted value that is a
///    scheme's name (`Bearer`, `Basic`, any case) and `%20`s takes the run after them, more names
///    too (`token%3DBearer%20x`); a value after it that starts with a placeholder is left alone.
///    Or the separator is encoded twice, `%253D` or `%253A` (a form in a parameter of another form
///    or URL, `state=user%253Dbob%2526password%253Dx`; in a URL's query rule 1 drops it first): then each of
///    those is encoded once more, `%2520`s and `%2B`s (form encoding's `+`, encoded) around it, a
///    key's quote `%2522` or `%2527` (as well as the ones above), a value's quote `%2522` or `%2527`,
///    an unquoted one's stop `%25` + a stop's code above (`%2500`–`%2520`, `%2526`, …; a header's:
///    `%250A`, `%250D`), a scheme's `%2520`s; what is encoded once is text of the outer level, so a
///    stop encoded once (`%26`, a real `&` there; `%20`, `%22`, …) ends any value too, as does a `%`
///    without two hex digits or a `%25` without two after it (`password%253Dx%2526n%253D1`,
///    `%2522password%2522%253A%2522x%2522`). Encoded three times (`%25253D`) a separator is text.
///    Markup labels a value with no separator: an XML element whose start tag is `<`, an optional
///    prefix of up to 64 `[A-Za-z0-9_.-]` and `:`, a local name of up to 64 of them and a key (any
///    case), then `>` or a blank (`[\t-\r ]`) and up to 192 bytes of attributes (no `<`, `>` or URL,
///    and a letter, digit or quote right before the `>`): its text up to a `<`, a line break or the next URL (before the
///    quote and up to 15 backslashes right before one) when it holds a byte other than a space or
///    tab, or a CDATA section's content to `]]>` (the same ends) → `[redacted-secret]`
///    (`<wsse:Password Type="#PasswordText">x</wsse:Password>`, `<password><![CDATA[x]]>`); and a
///    multipart form-data part: `name` (any case, not right after an `[A-Za-z0-9_.-]`), `=`, `"` or
///    `\"`, any run of `[A-Za-z0-9_.-]` and a key, the same quote, a blank line (`\r\n\r\n` or
///    `\n\n`, real or each break written `\r`, `\n`): its first line, to a line break, an escaped
///    one or the next URL as before. A placeholder alone is left alone. Read back from the tag's
///    `>` over at most 336 bytes, stopping at a `<` or `>`: linear.
///    A long command-line option labels a value with blanks: `--` not right after an
///    `[A-Za-z0-9_-]`, a run of `[A-Za-z0-9_-]` that ends in one of the keys above (any case; a
///    header's key too, whose value is then a plain value's: `--password`, `--db-password`,
///    `--access-token`, `--cookie`), one or more spaces or tabs and (after blanks) a byte that is no
///    `-` and starts no separator (`--X--secret = 'x'` is the `=`'s credential): what follows
///    is as after a `=` (blanks, openers, a structure, a quoted or an unquoted value, its stops;
///    the `--`, the name and the blanks kept) → `[redacted-secret]`
///    (`mysql --password [redacted-secret] --host=db`, `--db-password '[redacted-secret]'`). A flag
///    before another option (`--password --host=db`) or at the end keeps what follows; a short
///    option (`-p x`) is none: too many take a value that is no secret.
///    An option that names a user and a password labels the password: curl's `-u`, `--user`,
///    `-U`, `--proxy-user` (where a word `curl` starts before the `:`: not right after an ASCII
///    letter or digit, before a blank, `\`, a quote or the end; `date -u 10:00`, `nc -u h:8125` and
///    `mvn -U dependency:tree` stay) or HTTPie's `--auth` (case as written; at the start, after
///    white space, a quote or an escaped `\t`, `\n`, `\r`), 1–64 spaces or tabs or an `=`, an
///    optional `"`, `\"` or `'`, or in an argument list the option in quotes, `,`, a space at most and
///    the same quote (`['curl', '-u', 'alice:x']`); a user name, empty (not right after `=`) or of
///    1–64 `[A-Za-z0-9._@+~!$%\-]` ending in a letter or digit and not digits alone (`1000:1000` is
///    a user and a group), then `:`, where no key ends and, after a quote, not the same quote: what
///    follows the `:` is as after a `=` → `[redacted-secret]`, the name left to rules 3–7
///    (`curl -u alice:[redacted-secret]`, `--auth [redacted-email]:[redacted-secret]`; Alamofire's
///    `cURLDescription()` writes `-u`).
///    A key glued to the end of a base64 run (rule 7's characters, `\/`, `%2F` and invisible
///    separators included; read back no further than the previous span, and not over the letters
///    of an escape, `\n`, `\u0026`, `\x0A`, that an odd run of backslashes writes right before
///    it) may be a word inside a random secret (`…L/VGiinCYPwd=G9D0…`): when that run, the head,
///    does not end in `_` or `-`, is no name (it holds a character no identifier holds: `+ / =` in
///    any spelling or an invisible separator; or digits in two places; or four digits in a row)
///    and rule 7's match from the head's start, within the credential's span, reaches past the
///    key's start, the span starts at the head and goes whole (`wJal…/bPxRfiCYtoken=x` →
///    `[redacted-secret]`); `SPRING_DATASOURCE_PASSWORD`, `oauth2ClientSecret`, `dbPassword`,
///    `x509Password` keep their names.
/// 3. **Bearer tokens**: `bearer` (any ASCII case) not right after an ASCII letter or digit (but
///    after a percent-encoded byte `%XX`, an escaped `\xHH`, `\uHHHH` or `\n`, `\r`, `\t`) or a placeholder, then
///    separators (spaces, tabs, `:`, `%20`, `+`, Unicode spaces, ANSI colour
///    codes), repeated
///    (`Bearer bearer x` is one match), an optional `"`, `\"` (1–15 backslashes), `'` or `<` and
///    blanks (rule 2's), the token
///    `[A-Za-z0-9._~+/=-]+` (a `/` also written `\/`, or after up to 15 backslashes; `/ + =` also
///    percent-encoded as in rule 7) with invisible separators, and blanks and the matching closing
///    quote (the same backslashes before it; not one
///    right before a URL, which is that URL's context) → `[redacted-bearer]`. Likewise an
///    unlabelled HTTP Basic credential: `basic` (any case, the same places), its separators, then
///    (not `bearer` or `basic` and a separator) a token of the same characters, no quote, that
///    holds a digit, `+ / =` (`\/` too), or a lower-case letter and an upper-case one after its
///    first character (so `Basic auth` and `Basic Authentication` stay) → `[redacted-bearer]`.
///    And a SASL credential as SMTP and IMAP send one: `AUTH` or `AUTHENTICATE` (any case, the same
///    places), spaces or tabs, `PLAIN` or `LOGIN` (any case), spaces or tabs, then a run of four or
///    more `[A-Za-z0-9+/=]` with that token's shape (a digit, `+ / =`, or both cases after its first
///    character: `auth plain text` in prose stays) followed by the end, a space, a tab, a line
///    break, a quote (`"`, `'`, backtick), an escaped `\r` or `\n`, or a URL's separator (a run glued
///    to a URL whose scheme it is not: `AUTH PLAIN AGJvYg==https://…`), not by any other byte
///    (`AUTH PLAIN abcd;x` stays) → the run `[redacted-secret]`, the words before it kept
///    (`send: 'AUTH PLAIN [redacted-secret]\r\n'`); `AUTH PLAIN` alone or `AUTH PLAIN =` (SASL's empty
///    response) stay.
///    And a password in a SQL statement (MySQL's and PostgreSQL's statement logs, an ORM's, a
///    migration tool's): `IDENTIFIED` (any case, the same places), blanks (spaces, tabs, line
///    breaks, also escaped after 1–15 backslashes: `\n`, `\\t`), then `BY`, or `WITH`, blanks, a
///    plugin's name (1–64 `[A-Za-z0-9_]`, on either side a `'`, `"` or backtick after up to 15
///    backslashes, or one of them doubled, optional), blanks and `BY` or `AS` (MySQL's hash, which logs in as the password
///    does); blanks, and `PASSWORD` or `VALUES` and blanks when no letter follows (`IDENTIFIED BY
///    PASSWORD '*…'`, Oracle's `IDENTIFIED BY VALUES 'S:…'`); then a quoted value or Oracle's
///    unquoted one, a letter and a run of `[A-Za-z0-9_$#]` followed by the end of its region, a
///    blank, one of `; , ) ] } < > |`, a quote, or `\` and one of `r n t " ' \` (`identified by
///    sha256/…` stays, a pin; `identified by 1234` stays). Or `PASSWORD` (any case, the same
///    places) and blanks, or blanks, `(` and blanks (`PASSWORD('x')`), or blanks, `FOR`, blanks, an
///    account (a run of bytes other than blanks, `=` and `[`, so what later rules make of a run, a
///    placeholder, is none, and not where a bearer or basic credential starts), blanks, `=` and
///    blanks (`SET PASSWORD FOR 'bob'@'%' = 'x'`), then a quoted value (PostgreSQL's `ALTER ROLE
///    app PASSWORD 'x'`, a message's `wrong password "x"`); or blanks, `=` and blanks before a value
///    in doubled quotes (T-SQL's `PASSWORD = ''x''` in dynamic SQL; rule 2 takes `PASSWORD = 'x'`). A quoted value opens with `'` or `"`
///    after up to 15 backslashes (a statement in a JSON or Python string); after a bare quote it
///    runs over bytes other than that quote and `\`, a `\` and the byte after it (MySQL's escape)
///    and the quote doubled (SQL's; not before ` at line `, where MySQL's syntax error closes its
///    quote around the statement: `near 'IDENTIFIED BY 'x'' at line 1`), after an escaped one up to
///    a run of backslashes and the quote that closes a string so opened (as rule 2's quoted values;
///    of its backslashes, the escaped ones are the value's), to a line break, or before a quote
///    right before a URL and up to 15 backslashes before it (the URL's context, as rule 2's values)
///    → `[redacted-secret]`, the words and quotes kept (`ALTER ROLE app PASSWORD
///    '[redacted-secret]'`). A quote doubled opens a value too (CSV's `""x""`, a SQL string's
///    `''x''`: PL/SQL's `EXECUTE IMMEDIATE '… IDENTIFIED BY ''x'''`; also escaped, its backslashes
///    and quote written twice: a CSV row in a JSON string, `\"\"x\"\"`), which runs to the next
///    doubled quote (escaped: at a backslash run's start; four are a quote in it), unless a blank (also a Unicode space), a quote, a backtick,
///    `\`, one of `; , ) ] } . : | < > & - /` or the end follows it (an empty value: `''::text`). An
///    empty value, one that starts with a placeholder, and a pin quoted as one (`sha256/`, 43 base64
///    characters and `=`, closed by the value's own quote, which does not follow again; §4) stay. Prose shaped like a
///    statement loses a word (`identified by QA` loses `QA`), as `sshpass -p` in prose does.
/// 4. **Email addresses**: a local part of `[A-Za-z0-9._%+!#$'*^~-]` and non-ASCII characters
///    (not starting with `'` nor inside a percent-encoded byte, `%XX` or `%25XX`, and holding no
///    encoded `=` or `&`, `%3D`, `%26`, `%253D` or `%2526`, so a form encoded twice or three times
///    keeps its fields), `@` or its percent-encoded `%40` or `%2540` (the last of a local part's
///    `%40`s with a valid domain, as a greedy expression takes it), then two or more dot-separated
///    labels of `[A-Za-z0-9-]`, non-ASCII characters and percent-encoded bytes 80–FF (`%C3`, `%25C3`,
///    any case: the UTF-8 of a non-ASCII letter; so `root@10.0.0.1`, `alice@bücher.de` and
///    `alice%40b%C3%BCcher.de` too; a JSON escape `\uXXXX` of a non-ASCII character other than a
///    Unicode space counts as that character in both parts, as Python's `json.dumps` writes
///    `alice@b\u00fccher.de`) → `[redacted-email]`, but not an scp-style git remote: a run of
///    local-part characters that is `git` (after quotes or not) before `@`, and a domain followed
///    by `:` (`git@github.com:org/repo.git` keeps its host; `alice@example.com:` goes). When rule 7 would take, from the start of
///    the base64 run (rule 7's characters) that ends where the match starts (read back no further
///    than the region's start or the previous match) or that holds the domain's end, a match that
///    reaches past the email's edge, the email's match takes it too (after the domain, not when a
///    labelled pin that rule 6 keeps starts there): a token glued to an email
///    goes whole (`bob@example.com-wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`,
///    `wJalrXUtnFEMI/K7MDENG/bPxRfiCY+bob@example.com`), and `alice@example.com/profile` keeps its path.
/// 5. **UUIDs**, 8-4-4-4-12 hex digits in any case, invisible separators allowed between them
///    → `[redacted-uuid]`.
/// 6. **Labelled pins stay**: 43 standard base64 characters and `=` (a SHA-256 pin), not followed
///    by another base64 character (of rule 7: `\/` and `%2F` are ones), right after `sha256` (any case) and one of `/`, `//`, `=`,
///    `="`, `=\"`, `='`, `:`, `: `, `":"`, `": "`, `" : "`, `\":\"`, `\": \"`, `\/`, `\/\/`, `':'`, `': '`
///    (OkHttp, curl, HPKP `pin-sha256="…"`, JSON as Foundation's `JSONEncoder` writes it, Python)
///    is kept as it is, and later rules do not see it; so is the list of
///    pins the transport writes after `expected one of ` (pins joined by `, `). Each `/` of the 43
///    characters may be written `\/`, and `\/` after the `=` counts as a base64 character:
///    `JSONEncoder` escapes every `/`. As in rule 7, the `\` may be 1–15 backslashes (JSON in a
///    JSON string writes `\\\/`), there and in the labels `\/` and `\/\/`. This holds after every label, not only the escaped ones,
///    because JSON escapes the body whatever the label (`"SHA256:…"`, `"pin-sha256='…'"` keep
///    theirs); it keeps nothing the plain form would not (the label and exactly 43 characters are
///    still required, and a `\` carries nothing a reader could use). A pin percent-encoded
///    (`sha256%2F…%3D`) is not kept: its run, `sha256` included, is rule 7's and goes whole.
/// 7. **Tokens** → `[redacted-token]`: at each position, first a JWT (a run of base64 characters
///    whose last `[A-Za-z0-9_-]` stretch holds `eyJ` and a character after it, then `.segment`
///    and `.` and a last segment that may hold `+ / =`, so a JWT glued to a long run goes whole;
///    or, when the stretch from `eyJ` has 16 characters or more, one `.` and 16 or more base64
///    characters, so a two-segment `sk.eyJ….sig` goes and `surveyJob.completed` stays), then 32 or more base64 characters `[A-Za-z0-9+/=_-]` holding a
///    digit or both letter cases. A `/` written `\/` (`JSONEncoder`), or after up to 15 backslashes
///    (escaped again: `\\\/`), is one base64 character, so an escaped secret is the same run as the
///    secret; so are `/ + =` percent-encoded, `%2F`, `%2B`, `%3D`, or encoded twice `%252F`, `%252B`,
///    `%253D` (any case), which count as that character and not as the digit and letter they are
///    written with (`a%2Fb%2F…` is a path of one case), and no match starts inside one (it starts at
///    its `%`). A long run of one case and no digit is a name (an event, an
///    error code) and stays; so is a run of both cases and no digit that reads as words: only
///    ASCII letters, `_`, `-` and `=`, every stretch of lower-case letters two or more long but
///    one it starts with (`NSURLErrorServerCertificateUntrusted`,
///    `HttpRequestMethodNotSupportedException`, logfmt's `code=CURLE_SSL_PINNEDPUBKEYNOTMATCH`,
///    which `=` joins into one run). Every later start in such a run is one too (or of one case),
///    so a leftmost search agrees. The price: a random secret of that shape stays. Of random runs
///    of 32 characters, standard base64 is one with probability 1.9 × 10⁻⁵ (no digit, no `+ /`,
///    both cases, no lone lower-case letter after the first stretch), of 43 characters 4.6 × 10⁻⁷;
///    base64url, whose `-` and `_` may be in a name, 5.2 × 10⁻⁵ and 1.8 × 10⁻⁶; a secret of letters only is one
///    with probability 1.5 % at 32 characters, 0.35 % at 43 and 0.02 % at 64 (exact, by a dynamic
///    program over the stretch length; the test `randomSecretsAsNames` samples the first and last).
///
/// Within a rule, matches are found leftmost-first, as a regular-expression engine would; the
/// test suite checks that an `NSRegularExpression` implementation of the same rules agrees byte
/// for byte on a large generated corpus.
///
/// **Linear by construction.** No regular expressions and no backtracking: each rule is a forward
/// scan in which every byte is examined a bounded number of times, whatever the input.
/// - Trigger bytes (`:`, `%`, `=`, `\`, 0xEF, `>`, `@`, `-`, `2`, `x`, `J`) are found sixteen at a time (one
///   vector compare, `ByteBlock`; rules 1–2's finder as written below), and each trigger's next
///   position is remembered (`CachedFinder`), so a byte is searched at most once per trigger byte
///   and rule, however many candidates fail (a search's last block may overlap the one before it:
///   twice at most). Rules 1–2 meet their candidates (`:`, `=`, `%`, `\`, 0xEF, `>`) in one pass, in order
///   (`WindowFinder`: 64 bytes tested for all six at once in blocks of sixteen and the
///   window's bit mask kept, a window starting where the search does or ending at the end, so
///   only the last overlaps the one before; after four windows without one, `memchr` per byte
///   with its next position remembered; each search starts after the previous answer, so the
///   pass only moves forward). The same window's bytes, compared once more with `-`, mark the first
///   `-` of each `--` (and a `-` that is a window's last byte; with `memchr`, every `-`): a `-` not
///   followed by one goes at one load; a `--` reads its option's name forward once, a run of
///   `[A-Za-z0-9_-]` that holds no other candidate (the pass resumes after it; so a run of `-` goes
///   at once), tests its last two bytes against the key-pair table below, reads the key back inside
///   the name and the blanks after it forward. A URL separator gives the URL; another `:` or `=` may end a
///   credential key (a `>` an XML start tag that names one, a `=` after `name` a form part's name),
///   and only when a key (or such a tag or name) is found is the next URL looked for ahead
///   (`URLRule.next`, whose finder for `:` and `%` works the same way); that URL is kept, and the
///   pass uses it when it reaches its separator, so each URL
///   body is scanned once. Spans go out in order of start. Rules 3–7 keep one search state for the
///   whole input (each trigger belongs to one rule, whose regions come left to right): a trigger
///   found past a region's end waits there for the rule's next region. (The old scanner searched
///   the rest of the line for `b` once per `B`: quadratic.) The bearer rule's finder compares
///   sixteen positions at a time against `b` and `a` and the next sixteen against `e` and `u`
///   (lowered, `| 0x20` and `| 0x24`), so it stops only at `be`, `ba` or `au` (also `aq`) in any case
///   (`BearerStartFinder`, remembered like the others); a `basic` candidate's token is read forwards
///   once and its bytes once more, and a failed one holds no later candidate but one after a
///   non-alphanumeric byte inside it; an `au` candidate reads `auth`, `enticate`, its blanks, `plain`
///   or `login`, its blanks and its run forward once and the run once more for its shape, and each
///   run belongs to one candidate (another needs words and blanks of its own, which no run holds). Before the
///   word rules' first region, one pass over the rest of the input (blocks of sixteen, each read
///   with the blocks one byte before and after it; only the last overlaps the one before) tests
///   the six finders' triggers at once and marks the finders whose trigger is absent as searched
///   to the end (`markAbsentTriggers`), so they answer at once. The other finders pass over an
///   occurrence the rule rejects at the byte before it (an `@` after no local-part character, a
///   `-` after no hex digit, a `2` not after `a`, an `x` not after `e`, a `J` not after `y`)
///   inside the same search: one more byte read per occurrence (the `2`, `x` and `J` finders test
///   the letter before in the same block compare). A candidate is
///   first rejected with a load or two: a URL separator needs `:/`, `:\`, `%3` or `%2`; a credential
///   separator needs, after the `[ \t]*` run and an optional quote, a byte a key ends in (`n e d t
///   y s`, any case; the `D` of `%5D` is one) and before it one that byte follows in a key (`o e`
///   before `n`, `i s u m` before `e`, `r w i 5` before `d`, `e` before `t` and `y`, `l` before `s`:
///   one table of pairs, so `status=` or `s=` repeated goes at three loads), or a `]`, which alone
///   takes the form suffixes' look-back.
///   A `%` separates a key only as `%3D` or `%3A` (two more bytes read) or, encoded twice, `%253D`
///   or `%253A` (four; a `%2` is rejected at its third byte), a `\` only as `\u003d` or
///   `\u003a` (five more), a 0xEF only as `＝` or `：` (two more); an unquoted value's `\` is read ahead five bytes more for a `\u00XX`
///   that ends it; a key's encoded quote
///   (`%22`, `%27`: a `2` or `7` before the separator) takes three bytes more of look-back, five
///   before a separator encoded twice (`%2522`, `%2527`).
///   A `>` is looked at only after a letter, digit or quote, and its tag read back over at most 336
///   bytes, stopping at a `<` or `>` (so each byte for one `>`). A key ends in a letter, and a
///   start tag in a letter, digit or quote, so the triggers right after a rejected candidate are
///   stepped over at one or two examinations each, up to one that could start a URL separator.
/// - A command's password option (`sshpass -p x`) is a `-` before a letter the span pass's window
///   marks, read over a bounded name and the blanks after it (which hold no `-`); the input's
///   command words are read once, in one pass, at the first option's shape
///   (``CredentialRule/commandOption(at:end:urlBound:words:)``).
/// - A header value's bytes and a quoted URL body's that decide nothing (no quote, `\`, line
///   break, nor in the authority `/ ? # @ %`) are stepped over sixteen at a time
///   (`headerStopStart`, `quotedStopStart`): each once, but those of the last sixteen before the
///   scan's limit, which the block ending there reads again at each byte among them that decides
///   something (sixteen times at most).
/// - A credential key glued to a base64 run reads that run back (to the previous span at most,
///   and the backslashes before it) and measures rule 7's match from its start forward, within
///   the credential's span; the credential's span then goes out whatever the answer, so the next
///   key's look-back starts after it: each byte is read back for one key and forward once more.
/// - A candidate's look-back is bounded: a URL scheme at most 33 bytes; a credential key at most
///   15 bytes, its quote 6 (`&quot;`, `\u0022`; or the backslashes before a `"` or `'`, up to 15),
///   the `%20`s and `+`s before a percent-encoded separator (`%2520`s and `%2B`s before a 5-byte
///   `%253D`; they belong to it alone, so each is read back for one separator) and its form suffixes 48 (four of at most 12: `%5B`, six digits, `%5D`;
///   read backwards once, each suffix told by its last bytes) after the `[ \t]*` run, which
///   belongs to one separator only (its rejection check
///   and its key check read that run, so twice at most); an email's local part
///   stops at the previous `@` (it cannot contain one), so local parts of different candidates
///   never overlap; an `@` candidate reads its domain first and its local part back only when the
///   domain is valid and no git remote's (an `@` where the previous domain scan stopped reads that
///   domain's bytes once more as its local part; at the `\` of an escaped non-ASCII character,
///   `\uXXXX`, the five bytes after it, read already, are read once more, and a domain reads them
///   once; a valid domain followed by `:` reads its local part back once more, for `git` and
///   quotes); a UUID's eight digits stop at the previous `-`. An
///   email's match that a base64 character touches first tests 32 bytes at once, from the search's
///   start (the previous match's end or the region's start) when the match ends within them, else
///   from there and from the match's start: when the run before the match and the match's first
///   byte no run goes over, and the match and the run after it to the next such byte, fit in them
///   with no `eyJ`, no token reaches across and nothing more is read. Otherwise it reads the run
///   before it back to the previous
///   match (or the region's start) and measures it forward once (32 bytes at once, or byte by byte
///   from a `%` or a non-ASCII byte), and the run that holds its domain's
///   end back to the match's start and forward once: from a match, so the next search starts past
///   the bytes read (or rereads them once as a local part).
/// - A candidate's look-ahead either becomes the match (the search resumes after it) or is
///   bounded by a byte that stops the next candidate's too: a bearer's separators and token stop
///   at the next `b` that could start another candidate only after the scan passed them; an email
///   domain stops at the next `@`, which is then the next candidate with no search for it (one
///   after a match is kept for the search from the match's end); a UUID check spans at most four dashes (36 ASCII bytes around a
///   first dash are compared with the UUID's shape at once), so each byte is checked for at most
///   five dashes, and a failed check's search resumes after the last dash
///   that closed a group of four (such a dash has four digits before it, not eight).
/// - A labelled pin's check reads at most 97 bytes after a label that fits (43 characters written
///   `\/`, the `=` and the byte after, the escaped form in six blocks of sixteen), or, when two
///   backslashes stand side by side there (a `/` escaped more than once), at most 706
///   (43 characters of up to 16 bytes, the `=` and 17 bytes after): sixteen at a time up to the
///   first byte that is no pin character nor `\`, or a 44th character, and a byte at a time only
///   when that byte is an `=` right after 43 characters; a label is at most 32
///   bytes, no more than two labels fit after one `sha256`, and two `sha256` lie six bytes apart at
///   least: each byte is read for a bounded number of candidates.
/// - Token runs: a JWT or base64 run that fails from one position fails from every later
///   position inside the same run (the run only shrinks: no match starts inside a `\/` or a
///   `%2F`, where it would read more characters than from its start), so each run is measured once
///   (`runFailedBefore`); a JWT's second and third segments are measured at most three times. A
///   JWT's `eyJ` is looked for only when a `.` follows the run, in its last stretch: once more.
///   A run of ASCII token characters is measured by one tight loop, which the full measurement
///   continues from where it stopped when the run goes on with `+ / =`, `.` or a multi-byte
///   character.
///   A failed run is passed over at once. A run of both cases and no digit, 32 characters or
///   more, is read once more for a name's shape (`isName`), and then fails or is the match.
///   Before any of that, text where no match can start is passed over (`tokenCandidate`): a match
///   starts 32 run bytes in a row or a run holding `eyJ`, so the 16 bytes ending at the 32nd byte ahead are
///   tested at once and, when one of them cannot be in a run, every position up to the last such
///   byte goes at once; otherwise the bytes before the 32nd are read backwards to the last that
///   cannot, never below those already known to be run bytes (remembered across calls), so each
///   byte is read at most three times. A `%` is a run byte here when it starts a `%2F` (or one of
///   the others; in the block test, any `%`). An email's widening is tried only when the 32 bytes
///   from the run's start are all run bytes or hold an `eyJ` (read once, bounded).
/// - A JSON escape of a Unicode space or invisible separator is six bytes read once ahead from its
///   `\` (at a `\` where a blank, a rule 3 separator or token character, or a run character of rules
///   5 and 7 may be; the blanks' `\` only when a `u` follows it); read back, a key's blanks test the
///   `\` six bytes before the check's last byte only when that byte is a hex digit and the check
///   failed, a UUID's digits and a token run's start (for an email's widening) only at a hex digit,
///   and a UUID's first byte against the five before it for an escape it would sit in (after its
///   shape test only when a `u` is among the four before it, tested at once): each byte a bounded
///   number of times. The UUID shape test hands a candidate with a `\` (or a `u` in its
///   first block) to the byte-by-byte reading; rule 7's block test counts a `\` before a `u` as a
///   run byte, so a candidate never starts inside an escape.
/// - A run of backslashes is measured once, from its start, and passed whole (a structure's
///   strings, an escaped value's end, a URL body in a `"` or `'` string; rule 7's: a `\` that
///   starts no escaped `/` passes the rest of its run, but the 15 backslashes before a `/`).
/// - A scheme value's names, blanks and token are read once, forward (`schemeValueEnd`); the
///   blanks after a quoted token whose closing quote does not follow are read once more, as are a
///   bearer token's (the next search passes them). A header value's scheme names and blanks before
///   a quote are read ahead once (`schemeQuoteEnd`), then once more by the value's own scan. An
///   escaped opening quote's backslashes are counted up to sixteen, and when no token follows it
///   rule 2 reads them once more as a plain run.
/// - A header's context is read back at most 28 bytes once per header key (`headerContext`: up to
///   24 letters and `-`, then a quote or an escape of up to four bytes), and the backslashes before
///   it at most 16 (`headerPlace`), never below the previous span's end; in its value each run of
///   backslashes before a quote is measured once from its start and passed whole with the quote; a name–value pair's `value` key reads back over its quote,
///   at most four members between (each at most about 110 bytes) and none past another `value`
///   member, so the members two candidates read lie between them, then `,`, the name's run (which
///   holds no quote, blank or `,`: each candidate's ends at its own name's quote) and a key, `:`,
///   `name` or `key` and their quotes.
///   An escaped line break is at most eight bytes (`\x0D\x0A`) and the byte after, read ahead once.
/// - A value's openers are read once, forward: a constructor's name is read at most 32 bytes
///   ahead, with one or three bytes after its `(` (or after `Just`'s blanks), and is then passed
///   over or ends the openers; a string prefix is two bytes and its quote.
/// - A value opened by a quote in another spelling (at most six bytes) is scanned once, forward;
///   at each byte equal to the spelling's first, at most six bytes are compared with it. A
///   percent-encoded scheme value's names, `%20`s (`%2520`s) and token are read once, forward; a
///   percent-encoded value reads at most four bytes past each `%` in it (`%25` + two hex digits).
/// - A value that resumes after a URL: the URL goes out, the next URL is looked for ahead from its
///   end (the same forward search), and the rest of the value is scanned from after what ended the
///   URL (at most four bytes read past the URL's end: `\r\n`), once, forward, by the scan its kind
///   of value has (a spelled one's compares at most six bytes with the spelling at each byte equal
///   to its first, as before the URL): each byte of the rest is read once, and the pass resumes
///   after it.
/// - A structure value is scanned once to its closing bracket or the line's end, and when it does
///   not close, once more to the line's end: the pass resumes after the value, so no byte is in two
///   structures (one that meets the next URL does not close, and takes the rest of the line).
/// - Rules apply in turn to the gaps earlier rules left, so the total is at most the number of
///   rules times the input; the output is at most a constant factor longer than the input. (Rules
///   3–7 are driven without recursion, each keeping its next match, but each is asked the same
///   questions in the same order of position as when they apply in turn.)
/// The test "linear on adversarial input" counts these byte examinations at n and 4n.
///
/// Redaction never fails (any bytes, including invalid UTF-8 and NUL) and is idempotent: every
/// placeholder is `[`, lower-case letters, `-` and `]`, which no rule matches inside and after
/// which no bearer match starts; a kept host is followed by what ended its URL, so a second pass
/// ends it in the same place; a credential value that is a placeholder is left alone (also after
/// the empty quoted string a header's value may start with, and after a URL a value resumed at:
/// what ended the URL stays, so a second pass ends the URL in the same place and finds the rest a
/// placeholder); a header's context (its quote or escaped line break and the name's letters before
/// its key) goes out with the key, kept, so no later rule's match takes it (a bearer's closing quote,
/// a token run over `\n` and the name) and a second pass finds the header in the same string; a
/// pair's value is placeholders and kept URLs after a first pass, which a second pass leaves as
/// they are whether it finds the pair again or not (rule 7 may have taken a long name); a form key's
/// `]` never closes a placeholder, and a header value (or another unquoted one) is not ended by
/// an escaped line break it starts with (one resumed after a URL is: a first pass leaves the escape
/// right after what ended the URL, where a second pass resumes again), and is ended by a `\` right before `[redacted-email]` or `[redacted-token]`: what
/// a first pass leaves of an escaped line break whose `n` or `r` (or an escaped tab whose `t`; it
/// ends a URL too) starts an email or a token (no
/// other rule's match starts there: a URL whose scheme does stops the value itself, a bearer
/// token needs no letter before `bearer`, a UUID a hex digit, a pin `sha256`; of nginx's `\x0A` a
/// UUID may take the `0` or the letter, and `\x[redacted-uuid]`, `\x0[redacted-uuid]` end it too). A URL in a `"` or
/// `'` string ends before the escaped backslashes that precede its closing quote, so no URL's
/// span takes the backslashes that make a later URL's `\"` context (`"://\\"://h\"`: the
/// hostless first URL's placeholder leaves them). The quote (or backslash and quote) right before a URL decided where it ends, so
/// no other match takes it (a credential value, a header's inner string, a bearer token stop
/// before it). A URL with no host keeps its scheme and separator and `[redacted-url]` in its
/// host's place, which a second pass reads as a bracketed host (as `[::1]`): the URL starts where it
/// did, so whatever its start decides (a quote before it closes, a value, an inner string or an
/// escape stops before it) is decided the same. (The placeholder alone, as before, was no URL on
/// the second pass: `authorization=\'https://` gave `authorization=\'[redacted-url]`, whose quote
/// no longer closed.) A form key's suffixes never start with a placeholder's `]`; a
/// placeholder holds no `%`, so no percent-encoded separator, quote, URL, `@` or `/` appears in one. A structure value's content becomes one placeholder between the same
/// brackets (or before the same line end), which a second pass finds and leaves. A scheme's quoted
/// token goes with its names and blanks, its closing quote too unless that is a URL's context, so a
/// second pass sees no scheme name before a quote (`Authorization: [redacted-secret]"`). A value
/// between quotes in another spelling becomes the placeholder between the same spellings, which a
/// second pass finds and leaves (a doubled one after the same doubled key quote), and its rest after
/// a URL the placeholder after what ended the URL, kept, as a quoted value's; `\'` and a doubled
/// quote right before a URL open no such value, so what the URL's context decides stays. No match
/// contains a line feed or carriage return, and every look-behind or look-ahead treats one like
/// the start or end of the text, so text may be redacted in pieces cut after a line break.
public enum LogSanitizer {
    public static let bearerPlaceholder = "[redacted-bearer]"
    public static let emailPlaceholder = "[redacted-email]"
    public static let uuidPlaceholder = "[redacted-uuid]"
    public static let tokenPlaceholder = "[redacted-token]"
    /// A credential's value (rule 2).
    public static let secretPlaceholder = "[redacted-secret]"
    /// A URL with no host, in the host's place after the scheme and separator (`https://[redacted-url]`):
    /// nothing else of it is kept, a bare "https://" cannot glue onto what follows, and a second pass
    /// reads it as a URL with a bracketed host, so the URL keeps deciding what it decided.
    public static let urlPlaceholder = "[redacted-url]"

    // The placeholders as static strings: a span or match that carries one stays a plain value
    // (no reference count to update as the spans and matches are copied).
    static var bearerBytes: StaticString { "[redacted-bearer]" }
    static var emailBytes: StaticString { "[redacted-email]" }
    static var uuidBytes: StaticString { "[redacted-uuid]" }
    static var tokenBytes: StaticString { "[redacted-token]" }
    static var secretBytes: StaticString { "[redacted-secret]" }
    static var urlBytes: StaticString { "[redacted-url]" }

    /// The redacted form of `text`.
    ///
    /// A line with nothing to replace comes back as the same string (no copy); otherwise the
    /// redacted bytes are written into the new string's storage, with no array between them.
    public static func redact(_ text: String) -> String {
        var copy = text
        return copy.withUTF8 { buffer in
            var run = SanitizerRun(input: SanitizerInput(input: buffer, counter: Uncounted()))
            return run.changedString()
        } ?? text
    }

    /// The redacted form of `value` written under `key` (a logger's metadata, a JSON member), where
    /// the key never reaches the rules together with its value: under a credential key (rule 2's,
    /// any ASCII case, also as the end of a longer key such as `access_token`, `db_password` or
    /// `Set-Cookie`) a non-empty value is a secret as a whole; under any other key it is redacted
    /// like any text.
    public static func redact(_ value: String, key: String) -> String {
        guard !value.isEmpty, isCredentialKey(key) else { return redact(value) }
        return secretPlaceholder
    }

    /// Whether `key` ends in one of rule 2's keys, any ASCII case, with the form suffixes rule 2
    /// takes in text after it (`user[password]`, `password[]`, `password[0]`, `user%5Bpassword%5D`):
    /// the rule's own reading (`CredentialRule.bracketStart(before:bound:)`, then
    /// `keyWordStart(endingAt:from:)` with `pass`'s boundary), so a metadata key and the same key in
    /// text never disagree.
    static func isCredentialKey(_ key: String) -> Bool {
        var copy = key
        return copy.withUTF8 { buffer in
            let rule = CredentialRule(text: SanitizerInput(input: buffer, counter: Uncounted()))
            let keyEnd = rule.bracketStart(before: buffer.count, bound: 0)
            return rule.keyWordStart(endingAt: keyEnd, from: 0) != nil
        }
    }

    /// Rule 2's keys, lower case (`CredentialRule.key(before:gapStart:)` compares the same ones).
    static let credentialKeys = [
        "authorization", "cookie", "password", "passwd", "secret", "token", "api_key", "api-key", "apikey",
        "secret_key", "secret-key", "secretkey", "private_key", "private-key", "privatekey", "access_key",
        "access-key", "accesskey", "passphrase", "pwd", "sessionid", "session_id", "sessid", "credentials", "pass",
    ]

    /// The redacted form of arbitrary bytes (invalid UTF-8 passes through where no rule applies).
    /// An array takes no generic path: a log line is short, and that path costs as much as a
    /// rule's scan of it.
    /// A line with nothing to replace comes back as the same array (no copy, no allocation).
    public static func redact(bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { redact(buffer: $0) } ?? bytes
    }

    /// The redacted form of arbitrary bytes (invalid UTF-8 passes through where no rule applies).
    public static func redact<Bytes: Collection>(bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ redact(buffer: $0) ?? Array($0) }) { return result }
        return redact(bytes: Array(bytes))
    }

    /// The redacted form of `buffer`, or nil when it is `buffer` as it is.
    static func redact(buffer: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var run = SanitizerRun(input: SanitizerInput(input: buffer, counter: Uncounted()))
        return run.changed()
    }

    /// The number of byte examinations redacting `bytes` takes: a deterministic measure of work
    /// for linearity checks (the benchmark). Slower than ``redact(bytes:)``.
    public static func operationCount(redacting bytes: [UInt8]) -> Int { countingRedact(bytes).operations }

    /// The redacted bytes and the number of byte examinations it took (for the linearity test).
    static func countingRedact(_ bytes: [UInt8], engine: Engine = .current) -> (output: [UInt8], operations: Int) {
        let counter = OperationCounter()
        let output = bytes.withUnsafeBufferPointer {
            var run = SanitizerRun(input: SanitizerInput(input: $0, counter: counter), engine: engine)
            return run.run()
        }
        return (output, counter.operations)
    }

    /// `bytes` redacted by the previous engine (``Engine/regionByRegion``): the fuzz target
    /// compares it with ``redact(bytes:)`` byte for byte. Not for use outside tests.
    @_spi(EngineOracle) public static func redactWithPreviousEngine(bytes: [UInt8]) -> [UInt8] {
        countingRedact(bytes, engine: .regionByRegion).output
    }

    /// How the word rules (3–7) keep their search state. The tests run both and compare them byte
    /// for byte: the previous engine stays as an oracle while the scanner is rebuilt in steps.
    enum Engine: Sendable {
        /// One search state for the whole input: each trigger byte is searched for once per line.
        case current
        /// A fresh state for every region every rule sees, finders bounded by the region (the
        /// implementation before the single-pass work; kept for differential tests).
        case regionByRegion
    }
}

/// One redaction: URL and credential spans in order of start, rules 3–7 in the gaps between them.
struct SanitizerRun<Counter: LogSanitizerCounting> {
    let text: SanitizerInput<Counter>
    let engine: LogSanitizer.Engine
    var output: OutputBuffer
    /// Input bytes decided to go out as they are but not yet copied: adjacent kept ranges (gaps
    /// between matches, kept hosts and pins) go out in one copy.
    var pending = 0..<0

    init(input: SanitizerInput<Counter>, engine: LogSanitizer.Engine = .current) {
        text = input
        self.engine = engine
        output = OutputBuffer()
    }

    /// The redacted input.
    mutating func run() -> [UInt8] { changed() ?? Array(text.input) }

    /// The redacted input, or nil when nothing was replaced (the output would be the input as it
    /// is, which the caller already holds). The output is built in a temporary buffer (on the stack
    /// for a typical line: placeholders are longer than the shortest matches, so it has room for
    /// some growth; a line that outgrows it moves to the heap) and copied into the array returned,
    /// which is the one allocation of a line with something to replace. A long input goes
    /// straight into the array returned (``changedLong()``).
    mutating func changed() -> [UInt8]? {
        if text.count >= 1 << 16 { return changedLong() }
        return changedShort { $0.array() }
    }

    /// ``changed()`` as a string (the entry the logger calls): a line under 64 KiB goes from the
    /// temporary buffer straight into the string's storage (one allocation and one copy fewer
    /// than an array made first and decoded after).
    mutating func changedString() -> String? {
        if text.count >= 1 << 16 { return changedLong().map { String(decoding: $0, as: UTF8.self) } }
        return changedShort { output in
            String(unsafeUninitializedCapacity: output.count) { target in
                target.baseAddress?.initialize(from: output.base, count: output.count)
                return output.count
            }
        }
    }

    /// ``changed()`` for an input under 64 KiB, the output made by `make` from the finished buffer.
    @inline(__always) mutating func changedShort<Result>(_ make: (OutputBuffer) -> Result) -> Result? {
        // A short line without a byte any rule needs is the input as it is: no set-up at all.
        if text.count < SanitizerRun.shortGap, !mayMatchShort(from: 0, to: text.count, spans: true) { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count + text.count / 2 + 64) { buffer in
            defer { output.deallocate() }
            return redact(into: buffer) ? make(output) : nil
        }
    }

    /// Redacts the input with `storage` as the output's first buffer: false when nothing was
    /// replaced (everything kept and nothing written, an empty input included), else the output
    /// is complete in `output` (which may have moved to a buffer of its own).
    mutating func redact(into storage: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        output = OutputBuffer(storage: storage)
        redactAll()
        if output.count == 0, pending == 0..<text.count { return false }
        flush()
        return true
    }

    /// A long input, redacted straight into the array returned, with room for three times its
    /// length: pages the output never reaches are never touched, whereas a temporary buffer, the
    /// larger one it outgrows into and a copy would each be fresh memory the system must map (an
    /// 8 MiB line of packed addresses spent a quarter of its time in page faults that way). An
    /// output longer still moves to a buffer of its own and is copied out at the end.
    mutating func changedLong() -> [UInt8]? {
        var unchanged = false
        var spilled: [UInt8]?
        let direct = [UInt8](unsafeUninitializedCapacity: 3 * text.count + 64) { buffer, initialized in
            initialized = 0
            guard redact(into: buffer) else {
                unchanged = true
                return
            }
            if output.owned {
                spilled = output.array()
                output.deallocate()
            } else {
                initialized = output.count
            }
        }
        return unchanged ? nil : spilled ?? direct
    }

    /// Rules 1–2, then rules 3–7 in the gaps they leave, in one pass over the candidates of rules
    /// 1–2 (`:`, `=`, `%`, `\`, 0xEF, `>`) in order. A candidate that starts a URL separator gives the URL (which
    /// no credential can hold: a value stops at a URL's start); another `:` or `=` may end a
    /// credential key, and a credential's value stops at the next URL's start, which is looked for
    /// ahead (and kept for when the pass reaches it) only when a key is found. The spans go out in
    /// order of start without being collected.
    mutating func redactAll() {
        let urls = URLRule(text: text)
        let credentials = CredentialRule(text: text)
        let end = text.count
        var triggers = SpanTriggerFinder()
        var state = WordRules<Counter>.State(searchEnd: end, regionByRegion: engine == .regionByRegion)
        // The next URL after a credential's separator, found ahead: its separator (`Int.max`: none up
        // to the end; -1: not looked for yet) and span. It stays the next URL until the pass reaches it.
        var ahead = URLSearch()
        var aheadSeparator = -1
        var aheadSpan: LogSanitizer.Span?
        var cursor = 0
        // The previous URL's end (a scheme looks back no further) and the previous span's (a key).
        var urlBound = 0
        var keyBound = 0
        var position = 0
        // What the user options need of the input (``CredentialRule/userOptionContext(end:)``): -2 not
        // looked for yet, -1 no option's start in it, else where its first `curl` is. Looked for
        // once, at the first `:` that may end a user name.
        var userOptions = -2
        // The input's command words (``CredentialRule/commandOption(at:end:urlBound:words:)``), found once,
        // when an option's shape asks.
        var commandWords: CommandPasswordWords?
        while let candidate = triggers.next(from: position, to: end, in: text) {
            let byte = text.byte(candidate)
            // The byte after rejects most URL candidates (a separator starts `:/`, `:\`, `%3` or `%2`, two
            // bytes or more before the end): one table test for the pair, so one branch decides it.
            if candidate + 2 < end,
                (text.table[Int(byte)] &>> 2) & text.table[Int(text.byte(candidate + 1))]
                    & (LogSanitizer.Classes.afterColon | LogSanitizer.Classes.afterPercent) != 0,
                case let length = urls.separatorLength(at: candidate, colon: byte == UInt8(ascii: ":"), end: end),
                length > 0
            {
                let url =
                    candidate == aheadSeparator
                    ? aheadSpan! : urls.url(separator: candidate, length: length, lowerBound: urlBound, end: end)
                emitURL(
                    url, state: &state, cursor: &cursor, urlBound: &urlBound, keyBound: &keyBound, position: &position)
                continue
            }
            // A `>` ends no key: it may end an XML start tag that names one (`<password>x`).
            if byte == UInt8(ascii: ">") {
                // (The tag's last byte is its key's last letter or its attributes' letter, digit or
                // quote: `->`, `=>` and ` > ` go at one table test.)
                if candidate > keyBound,
                    text.has(candidate - 1, LogSanitizer.Classes.alphanumeric | LogSanitizer.Classes.quote),
                    let value = credentials.elementValueStart(close: candidate, bound: keyBound, end: end)
                {
                    lookAhead(urls, after: candidate, separator: &aheadSeparator, span: &aheadSpan, search: &ahead)
                    if let span = credentials.element(
                        close: candidate, value: value, stop: aheadSpan?.start ?? Int.max, end: end)
                    {
                        emitMarkup(span, state: &state, cursor: &cursor, keyBound: &keyBound, position: &position)
                        continue
                    }
                }
                position = candidate + 1
                continue
            }
            // The key a separator may end: after a `:` or `=` (or a `%`, `\` or 0xEF that spells one),
            // or a long option's, whose blanks separate it (`--password x`).
            var key: (start: Int, kind: LogSanitizer.CredentialKind)?
            var separator = candidate
            let percent = byte == UInt8(ascii: "%")
            var separatorLength = 1
            var mayEnd = false
            var optionEnd = -1
            // A user option's password in quotes: the string the quote before its name opened.
            var opened: (quote: UInt8, escapes: Int)?
            // A command's password option (`sshpass -p x`): the option stays with its blanks.
            var isCommand = false
            if byte == UInt8(ascii: "-") {
                guard candidate + 1 < end else {
                    position = candidate + 1
                    continue
                }
                if text.byte(candidate + 1) != UInt8(ascii: "-") {
                    // (Most are inside a word, a date or a token: the byte before rejects them here.)
                    guard credentials.commandOptionBoundary(before: candidate),
                        let option = credentials.commandOption(
                            at: candidate, end: end, urlBound: urlBound, words: &commandWords)
                    else {
                        position = candidate + 1
                        continue
                    }
                    isCommand = true
                    // (lftp's password: an empty key at the user's comma, the user left to rules 3–7.)
                    key = (option.comma ?? candidate, .value)
                    separator = option.comma ?? option.nameEnd
                    separatorLength = option.valueStart - separator
                    opened = option.opened
                } else {
                    let option = credentials.option(at: candidate, end: end)
                    // The span starts at the `--`, kept with the name: no later rule takes the dashes (a
                    // bearer token after `Bearer `).
                    if option.keyStart != nil { key = (candidate, .value) }
                    separator = option.nameEnd
                    separatorLength = option.valueStart - option.nameEnd
                    // No `--` in the option's name starts another (each is right after a name's byte).
                    optionEnd = option.nameEnd
                }
            } else {
                // A `%` separates a key only as `%3D` or `%3A` (percent-encoded `=`, `:`), a `\` only as
                // `\u003d` or `\u003a` (JSON-escaped, as Gson writes `=`), a 0xEF only as a full-width
                // `＝` or `：`.
                separatorLength =
                    percent
                    ? credentials.percentSeparatorLength(at: candidate, end: end)
                    : byte == UInt8(ascii: "\\")
                        ? credentials.escapedSeparatorLength(at: candidate, end: end)
                        : byte == 0xEF ? credentials.fullWidthSeparatorLength(at: candidate, end: end) : 1
                mayEnd = separatorLength > 0 && credentials.keyMayEnd(before: candidate, bound: keyBound)
                if mayEnd { key = credentials.key(before: candidate, gapStart: keyBound) }
                // Or the `:` between a user name and a password after a user option (`curl -u
                // user:password`, Alamofire's `cURLDescription()`): an empty key at the `:`, so the
                // name stays for rules 3–7 (an email, a token).
                // (The input's answer first: once it is no, a `:` costs one compare here.)
                if userOptions != -1, key == nil, byte == UInt8(ascii: ":"), candidate > keyBound,
                    let opening = userOption(colon: candidate, bound: keyBound, credentials, memo: &userOptions)
                {
                    key = (candidate, .value)
                    opened = opening.opened
                }
            }
            // A user option's quoted password at a key's own `:` wins over the key's value when it is
            // not empty (`curl -u "token:x y"`: curl reads the user `token` and the password `x y`).
            var quotedUserOption: (quote: UInt8, escapes: Int)?
            if let found = key, found.start != candidate, byte == UInt8(ascii: ":"), userOptions != -1,
                candidate > keyBound,
                let opening = userOption(colon: candidate, bound: keyBound, credentials, memo: &userOptions),
                opening != .bare
            {
                quotedUserOption = opening.opened
            }
            if var key {
                // (A command option's value may be glued to it: a URL's scheme reads back to the `-`.)
                lookAhead(
                    urls, after: isCommand ? candidate - 1 : separator, separator: &aheadSeparator,
                    span: &aheadSpan, search: &ahead)
                var found: (span: LogSanitizer.Span?, resume: CredentialRule<Counter>.Resume?) = (nil, nil)
                if let quotedUserOption {
                    found = credentials.credential(
                        key: (candidate, .value), separator: separator, length: separatorLength, percent: percent,
                        stop: aheadSpan?.start ?? Int.max, bound: keyBound, opened: quotedUserOption)
                    if found.span != nil || found.resume != nil { key = (candidate, .value) }
                }
                if key.start != candidate || quotedUserOption == nil, found.span == nil, found.resume == nil {
                    found = credentials.credential(
                        key: key, separator: separator, length: separatorLength, percent: percent,
                        stop: aheadSpan?.start ?? Int.max, bound: keyBound, opened: opened)
                }
                // A key whose value is nothing may still name a user before a quoted password
                // (`-u "token: x y"`, where the key's value ends at the blanks before a URL).
                if found.span == nil, found.resume == nil, userOptions != -1, key.start != candidate,
                    byte == UInt8(ascii: ":"), candidate > keyBound,
                    let opening = userOption(colon: candidate, bound: keyBound, credentials, memo: &userOptions)
                {
                    key = (candidate, .value)
                    found = credentials.credential(
                        key: key, separator: separator, length: separatorLength, percent: percent,
                        stop: aheadSpan?.start ?? Int.max, bound: keyBound, opened: opening.opened)
                }
                if var credential = found.span {
                    // A key glued to the base64 run before it may be a word inside a token (rare:
                    // most keys follow a blank, a quote, `_` or `-`). A user option's empty key
                    // (at its separator) has no word: its user name is left to rules 3–7.
                    if !isCommand, key.start > keyBound, key.start != separator,
                        case let flags = text.table[Int(text.byte(key.start - 1))],
                        flags & (LogSanitizer.Classes.alphanumeric | LogSanitizer.Classes.high) != 0
                            || flags & (LogSanitizer.Classes.base64 | LogSanitizer.Classes.token)
                                == LogSanitizer.Classes.base64,
                        let head = WordRules(text: text).gluedTokenStart(
                            keyStart: key.start, bound: keyBound, valueEnd: credential.end)
                    {
                        credential = LogSanitizer.Span(
                            start: min(head, credential.start), end: credential.end,
                            keepEnd: min(head, credential.start),
                            placeholder: .secret)
                    }
                    gap(from: cursor, to: credential.start, state: &state)
                    emit(credential)
                    cursor = credential.end
                    keyBound = credential.end
                    position = credential.end
                }
                if found.span != nil || found.resume != nil {
                    // A header's or quoted value that stopped at the next URL: the URL goes out (its
                    // host kept), and the value resumes after it, up to its own end or the URL after.
                    var resume = found.resume
                    while let kind = resume, let url = aheadSpan {
                        emitURL(
                            url, state: &state, cursor: &cursor, urlBound: &urlBound, keyBound: &keyBound,
                            position: &position)
                        (aheadSeparator, aheadSpan) =
                            urls.next(from: url.end, search: &ahead).map { ($0.separator, $0.span) } ?? (Int.max, nil)
                        guard let restart = credentials.resumption(after: url, kind: kind, end: end) else { break }
                        let rest = credentials.resumedValue(
                            from: restart, kind: kind, stop: aheadSpan?.start ?? Int.max)
                        resume = rest.resume
                        if let span = rest.span {
                            gap(from: cursor, to: span.start, state: &state)
                            emit(span)
                            cursor = span.end
                            keyBound = span.end
                            position = span.end
                        }
                    }
                    continue
                }
            } else if mayEnd, byte == UInt8(ascii: "="), candidate - 4 >= keyBound,
                text.matches("name", at: candidate - 4, end: candidate)
            {
                // A multipart part named by a key (`name="password"`, a blank line, the value).
                lookAhead(urls, after: candidate, separator: &aheadSeparator, span: &aheadSpan, search: &ahead)
                if let span = credentials.formPart(
                    separator: candidate, bound: keyBound, stop: aheadSpan?.start ?? Int.max, end: end)
                {
                    emitMarkup(span, state: &state, cursor: &cursor, keyBound: &keyBound, position: &position)
                    continue
                }
            }
            if optionEnd >= 0 {
                position = optionEnd
                continue
            }
            position = candidate + 1
            // Candidates right after a rejected one end no key (a key ends in a letter), so among
            // them only a URL separator matters: a run of them goes at one or two examinations a byte.
            // (The finder's window tells, without reading the byte.)
            if triggers.knownTrigger(at: position) {
                position = triggerRunEnd(from: position, end: end)
            }
        }
        gap(from: cursor, to: end, state: &state)
    }

    /// Whether the `:` at `colon` ends a user option's name (``CredentialRule/userOptionPassword(colon:bound:curl:)``),
    /// and how its password opens. `memo`: what the input holds of user options
    /// (``CredentialRule/userOptionContext(end:)``), -2 until it is looked for, at the first `:` that
    /// asks (then -1: no option's start in the input, else where its first `curl` is).
    @inline(__always)
    func userOption(colon: Int, bound: Int, _ credentials: CredentialRule<Counter>, memo: inout Int)
        -> CredentialRule<Counter>.UserOptionOpening?
    {
        if memo == -2 { memo = credentials.userOptionContext(end: text.count) ?? -1 }
        guard memo >= 0 else { return nil }
        return credentials.userOptionPassword(colon: colon, bound: bound, curl: memo)
    }

    /// The next URL after a candidate where a value may start, unless it is known: no URL separator
    /// lies between the previous URL and the candidate (the pass would have met it), so the first
    /// one after it is the next URL. (Its state passed `inout`, not captured: a nested function
    /// that captured the pass's locals paid a dynamic exclusivity check at each call.)
    @inline(__always)
    func lookAhead(
        _ urls: URLRule<Counter>, after candidate: Int, separator: inout Int, span: inout LogSanitizer.Span?,
        search: inout URLSearch
    ) {
        guard separator < candidate else { return }
        (separator, span) =
            urls.next(from: candidate + 1, search: &search).map { ($0.separator, $0.span) } ?? (Int.max, nil)
    }

    /// A markup credential's span (``CredentialRule/element(close:bound:stop:end:)``,
    /// ``CredentialRule/formPart(separator:bound:stop:end:)``): the gap before it to rules 3–7, the
    /// span, and the pass goes on after it (a later key looks back no further than its end).
    @inline(never)
    mutating func emitMarkup(
        _ span: LogSanitizer.Span, state: inout WordRules<Counter>.State, cursor: inout Int, keyBound: inout Int,
        position: inout Int
    ) {
        gap(from: cursor, to: span.start, state: &state)
        emit(span)
        cursor = span.end
        keyBound = span.end
        position = span.end
    }

    /// A URL span the pass reached: the gap before it to rules 3–7, the span, and the pass goes on
    /// after it (a later scheme looks back, and a later key, no further than its end).
    @inline(__always)
    mutating func emitURL(
        _ url: LogSanitizer.Span, state: inout WordRules<Counter>.State, cursor: inout Int, urlBound: inout Int,
        keyBound: inout Int, position: inout Int
    ) {
        state.urlStart = url.start
        gap(from: cursor, to: url.start, state: &state)
        emit(url)
        cursor = url.end
        urlBound = url.end
        keyBound = url.end
        position = url.end
    }

    /// The first position from `start` that is not a trigger (`:`, `=`, `%`, `\`, 0xEF, `>`), or is
    /// the start of a URL separator (`:/`, `:\`, `%3`, `%2`, two bytes or more before `end`). A
    /// trigger right after one (none of them a key's last byte) ends no key and no start tag (whose
    /// last byte is a letter, digit or quote), so only a URL separator matters. Out of line: rare
    /// outside adversarial input.
    @inline(never)
    func triggerRunEnd(from start: Int, end: Int) -> Int {
        var p = start
        while p < end {
            let byte = text.byte(p)
            if byte != UInt8(ascii: "=") && byte != UInt8(ascii: "\\") && byte != 0xEF && byte != UInt8(ascii: ">") {
                guard byte == UInt8(ascii: ":") || byte == UInt8(ascii: "%") else { break }
                if p + 2 < end {
                    let next = text.byte(p + 1)
                    if byte == UInt8(ascii: ":")
                        ? next == UInt8(ascii: "/") || next == UInt8(ascii: "\\")
                        : next == UInt8(ascii: "3") || next == UInt8(ascii: "2")
                    {
                        break
                    }
                }
            }
            p += 1
        }
        return p
    }

    /// Rules 3–7 on a gap between spans. None matches fewer than 5 bytes, and in fewer than
    /// ``shortGap`` only one holding `.`, `b` or `B` (see ``mayMatchShort(from:to:spans:)``), so
    /// another gap goes out as it is without setting the rules up.
    @inline(__always) mutating func gap(from start: Int, to end: Int, state: inout WordRules<Counter>.State) {
        let length = end - start
        if length >= SanitizerRun.shortGap || (length >= 5 && mayMatchShort(from: start, to: end, spans: false)) {
            if state.regionByRegion {
                apply(rule: 0, from: start, to: end, state: &state)
            } else {
                // The current engine straight to its pass (`apply` is the previous engine's
                // recursion, a large function to enter).
                if !state.triggersChecked { WordRules(text: text).markAbsentTriggers(from: start, &state) }
                applyFlat(from: start, to: end, state: &state)
            }
        } else {
            emit(start..<end)
        }
    }

    /// The shortest match of word rule `rule` (0–4), so a window shorter than that is not searched:
    /// a UUID is 36 bytes (8-4-4-4-12 hex digits; invisible separators only add to it), a labelled
    /// pin 51 (`sha256`, a label of one byte or more, 43 characters and `=`; the pin list's
    /// `expected one of ` and a pin, 60); the others 5 (`a@b.c`; a bearer token and a JWT are
    /// longer). Between matches packed together (emails 12 bytes apart) the two rules cost a call
    /// each for nothing.
    @inline(__always) static func shortestMatch(_ rule: Int) -> Int {
        switch rule {
        case 2: 36
        case 3: 51
        default: 5
        }
    }

    /// Below this length a word rule can only match with a `.`, `b` or `B` in the text: a bearer
    /// token starts with `bearer`, an email's domain and a JWT's segments hold a `.`, and the rest
    /// are longer (a UUID 36 bytes, a pin 44, a token 32).
    static var shortGap: Int { 32 }

    /// Whether `[start, end)` (fewer than 32 bytes) holds a `.`, `b` or `B` (and, for `spans`, a `:`,
    /// `=` or `%`, without which rules 1–2 find nothing): one or two blocks of sixteen bytes tested
    /// at once (one from `start` and one ending at `end`, or one block around a shorter range, its
    /// lanes outside the range masked), or one examination a byte in an input under sixteen bytes.
    @inline(__always) func mayMatchShort(from start: Int, to end: Int, spans: Bool) -> Bool {
        @inline(__always) func lanes(_ bytes: ByteBlock.Bytes) -> ByteBlock.Lanes {
            spans ? ByteBlock.shortWordBytes(bytes) .| SpanTriggers.lanes(bytes) : ByteBlock.shortWordBytes(bytes)
        }
        guard text.count >= 16, let base = text.input.baseAddress else {
            var p = start
            while p < end {
                let byte = text.byte(p)
                if byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "b") { return true }
                if spans, SpanTriggers.isTrigger(byte) { return true }
                if p + 1 < end, mayStartPair(byte, text.byte(p + 1), spans: spans) { return true }
                p += 1
            }
            return false
        }
        if end - start >= 16 {
            text.counter.tick(32)
            let (first, last) = (ByteBlock.load(base, start), ByteBlock.load(base, end - 16))
            if ByteBlock.any(lanes(first) .| lanes(last)) { return true }
            // (Every pair of adjacent bytes lies in one of the two blocks: they overlap.)
            return pairs(first, spans: spans) | pairs(last, spans: spans) != 0
        }
        let block = min(start, text.count - 16)
        text.counter.tick(16)
        let bytes = ByteBlock.load(base, block)
        let range = ByteBlock.lanes(from: start - block, to: end - block)
        if ByteBlock.any(lanes(bytes) .& range) { return true }
        return pairs(bytes, spans: spans, in: ByteBlock.bits(range)) != 0
    }

    /// Whether `first` and `second` start a word rule's match or a span without any byte
    /// ``mayMatchShort(from:to:spans:)`` tests alone: the pairs rule 3's finder stops at
    /// (``BearerStartFinder/isPair(_:_:)``: `AUTH PLAIN x`, `PASSWORD 'x'`, `IDENTIFIED BY x`), and for `spans` `--` (a long option named by a key, rule 2) or `-` and a letter (a command's
    /// password option, `sshpass -p x`).
    @inline(__always) func mayStartPair(_ first: UInt8, _ second: UInt8, spans: Bool) -> Bool {
        BearerStartFinder.isPair(first, second)
            || (spans && first == UInt8(ascii: "-")
                && (second == UInt8(ascii: "-") || (second | 0x20) &- UInt8(ascii: "a") < 26))
    }

    /// The lanes of `bytes` where a pair of ``mayStartPair(_:_:spans:)`` starts, as bits (both its
    /// bytes among `range`'s).
    @inline(__always) func pairs(_ bytes: ByteBlock.Bytes, spans: Bool, in range: UInt64 = 0xFFFF) -> UInt64 {
        let lowered = bytes | ByteBlock.Bytes(repeating: 0x20)
        let a = ByteBlock.bits(lowered .== ByteBlock.Bytes(repeating: UInt8(ascii: "a"))) & range
        let u = ByteBlock.bits(lowered .== ByteBlock.Bytes(repeating: UInt8(ascii: "u"))) & range
        // `id` and `pa` (rule 3's SQL passwords: `IDENTIFIED BY x` and `PASSWORD 'x'`).
        let i = ByteBlock.bits(lowered .== ByteBlock.Bytes(repeating: UInt8(ascii: "i"))) & range
        let d = ByteBlock.bits(lowered .== ByteBlock.Bytes(repeating: UInt8(ascii: "d"))) & range
        let p = ByteBlock.bits(lowered .== ByteBlock.Bytes(repeating: UInt8(ascii: "p"))) & range
        let words = a & u &>> 1 | i & d &>> 1 | p & a &>> 1
        guard spans else { return words }
        let dashes = ByteBlock.bits(bytes .== ByteBlock.Bytes(repeating: UInt8(ascii: "-"))) & range
        // A `-` before a `-` (a long option) or a letter (a command's password option, `-p`).
        let letters =
            ByteBlock.bits((lowered &- ByteBlock.Bytes(repeating: UInt8(ascii: "a"))) .< ByteBlock.Bytes(repeating: 26))
            & range
        return words | dashes & (dashes | letters) &>> 1
    }

    @inline(__always) mutating func emit(_ span: LogSanitizer.Span) {
        emit(span.start..<span.keepEnd)
        emit(span.hostStart..<span.hostEnd)
        switch span.placeholder {
        case .none: break
        case .url: emit(LogSanitizer.urlBytes)
        case .secret: emit(LogSanitizer.secretBytes)
        }
    }

    /// Input bytes that go out as they are.
    @inline(__always) mutating func emit(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        if range.lowerBound == pending.upperBound {
            pending = pending.lowerBound..<range.upperBound
            return
        }
        flush()
        pending = range
    }

    @inline(__always) mutating func flush() {
        guard !pending.isEmpty else { return }
        output.append(text.input.baseAddress! + pending.lowerBound, count: pending.count)
        pending = 0..<0
    }

    @inline(__always) mutating func emit(_ placeholder: StaticString) {
        flush()
        output.appendPlaceholder(placeholder)
    }

    @inline(__always) mutating func emit(_ match: WordMatch) {
        if match.placeholder == .kept {
            emit(match.start..<match.end)
        } else {
            emit(match.placeholder.bytes)
        }
    }

    /// Applies word rules `rule…` to `[start, end)`, emitting the result: the previous engine's
    /// cascade (``gap(from:to:state:)`` takes the current engine to ``applyFlat(from:to:state:)``).
    mutating func apply(rule: Int, from start: Int, to end: Int, state: inout WordRules<Counter>.State) {
        guard start < end else { return }
        // No word rule matches fewer than 5 bytes (`a@b.c`): a short gap goes out as it is.
        guard rule < LogSanitizer.wordRuleCount, end - start >= 5 else {
            emit(start..<end)
            return
        }
        let rules = WordRules(text: text)
        // The previous engine: this rule starts afresh in every region.
        if state.regionByRegion { state.reset(rule: rule) }
        var cursor = start
        while let match = rules.next(rule: rule, from: cursor, regionStart: start, end: end, state: &state) {
            apply(rule: rule + 1, from: cursor, to: match.start, state: &state)
            emit(match)
            cursor = match.end
        }
        apply(rule: rule + 1, from: cursor, to: end, state: &state)
    }

    /// The word rules' cascade without recursion: the same matches as ``apply(rule:from:to:state:)``
    /// (each rule's leftmost-first matches in the gaps of the rules before it), found with the same
    /// calls to each rule in the same order of position, but no call per rule and gap.
    ///
    /// Each rule keeps its next match. Rule `k`'s window runs from its cursor to the start of the
    /// next match of a rule before it (all of which are final: a rule's matches depend only on the
    /// rules before it). The next match to go out is the one of the last rule that has one in its
    /// window, since each window ends where the one before it found something. After it goes out,
    /// that rule searches on from its end, and every later rule starts a new region there; the rules
    /// before it keep their next match, which lies beyond, so their windows stay as they were and
    /// the next pass starts at the rule that matched (its window is remembered). A later rule
    /// starts its new region only when a pass reaches it: when the window left to it is shorter
    /// than any match (5 bytes), neither it nor any rule after it can match there, and the pass
    /// stops (matches packed together cost one search each, not one visit per rule).
    mutating func applyFlat(from start: Int, to end: Int, state: inout WordRules<Counter>.State) {
        // A sixth rule must get its own step in both passes below.
        precondition(LogSanitizer.wordRuleCount == 5, "the passes below visit rules 0 to 4")
        let rules = WordRules(text: text)
        // The first pass up to its first match, with nothing of the lanes' bookkeeping: each rule
        // from `start` in the whole gap (most gaps hold no match, and then this is all). Each rule
        // is called with a constant, so its search is a direct call, not a jump through a table
        // (the jump's target changed from one call to the next and was mispredicted).
        var firstMatch: WordMatch?
        var firstRule = 0
        let length = end - start
        firstPass: do {
            firstMatch = rules.next(rule: 0, from: start, regionStart: start, end: end, state: &state)
            if firstMatch != nil { break firstPass }
            firstRule = 1
            firstMatch = rules.next(rule: 1, from: start, regionStart: start, end: end, state: &state)
            if firstMatch != nil { break firstPass }
            firstRule = 2
            if length >= SanitizerRun.shortestMatch(2) {
                firstMatch = rules.next(rule: 2, from: start, regionStart: start, end: end, state: &state)
                if firstMatch != nil { break firstPass }
            }
            firstRule = 3
            if length >= SanitizerRun.shortestMatch(3) {
                firstMatch = rules.next(rule: 3, from: start, regionStart: start, end: end, state: &state)
                if firstMatch != nil { break firstPass }
            }
            firstRule = 4
            firstMatch = rules.next(rule: 4, from: start, regionStart: start, end: end, state: &state)
        }
        guard let firstMatch else {
            emit(start..<end)
            return
        }
        withUnsafeTemporaryAllocation(of: WordLane.self, capacity: LogSanitizer.wordRuleCount) { lanes in
            let lane = lanes.baseAddress!
            // The lanes as the first pass left them: the rules before `firstRule` searched the gap
            // and found nothing; `firstRule` found `firstMatch`.
            var searched = WordLane(start: start)
            searched.searched = true
            searched.window = end
            for rule in 0..<firstRule { (lane + rule).initialize(to: searched) }
            searched.match = firstMatch
            (lane + firstRule).initialize(to: searched)
            // Rules from `fresh` on start a new region at `freshStart` when a pass reaches them.
            var fresh = firstRule + 1
            var freshStart = start
            var emitted = start
            // The pass goes on from `from`, its window ending at `windowEnd`, set by rule `last`.
            var from = firstRule + 1
            var windowEnd = firstMatch.start
            var last = firstRule
            while true {
                /// Rule `rule`'s turn in the pass; false when the pass stops there. Called with a
                /// constant, as in the first pass.
                @inline(__always) func visit(_ rule: Int) -> Bool {
                    let current = lane + rule
                    if rule >= fresh {
                        // No word rule matches fewer than 5 bytes.
                        if windowEnd - freshStart < 5 { return false }
                        current.initialize(to: WordLane(start: freshStart))
                        fresh = rule + 1
                    }
                    current.pointee.window = windowEnd
                    current.pointee.lastBefore = last
                    if !current.pointee.searched {
                        current.pointee.searched = true
                        current.pointee.match =
                            windowEnd - current.pointee.cursor < SanitizerRun.shortestMatch(rule)
                            ? nil
                            : rules.next(
                                rule: rule, from: current.pointee.cursor, regionStart: current.pointee.regionStart,
                                end: windowEnd, state: &state)
                    }
                    if let match = current.pointee.match {
                        windowEnd = match.start
                        last = rule
                    }
                    return true
                }
                // The pass from `from` to the last rule.
                pass: switch from {
                case 0:
                    guard visit(0) else { break pass }
                    fallthrough
                case 1:
                    guard visit(1) else { break pass }
                    fallthrough
                case 2:
                    guard visit(2) else { break pass }
                    fallthrough
                case 3:
                    guard visit(3) else { break pass }
                    fallthrough
                case 4:
                    _ = visit(4)
                default:
                    break
                }
                // The match of the last rule that has one in its window goes out; that rule searches
                // on from its end, and the next pass starts at it (the rules before it have not changed).
                guard last >= 0, let match = lane[last].match else { break }
                emit(emitted..<match.start)
                emit(match)
                emitted = match.end
                lane[last].cursor = match.end
                lane[last].searched = false
                fresh = last + 1
                freshStart = match.end
                from = last
                windowEnd = lane[last].window
                last = lane[last].lastBefore
            }
            emit(emitted..<end)
        }
    }
}

/// One word rule's place in ``SanitizerRun/applyFlat(from:to:state:)``.
struct WordLane {
    var regionStart: Int
    var cursor: Int
    /// Whether `match` is the rule's next match in its current window (nil: none there).
    var searched = false
    var match: WordMatch?
    /// The rule's window ends here (where the nearest match of a rule before it starts, or the gap's end)…
    var window = 0
    /// …set by this rule, the last before it with a match in its window (-1: none).
    var lastBefore = -1

    init(start: Int) {
        regionStart = start
        cursor = start
    }
}

/// The redacted bytes as they are produced: a plain buffer, because `Array.append` costs tens
/// of instructions a call and a line makes a call per match. It starts in the storage of the
/// array that will be returned; when that is full it moves to a buffer of its own (`owned`).
struct OutputBuffer {
    var base: UnsafeMutablePointer<UInt8>
    var count = 0
    var capacity: Int
    /// Whether `base` was allocated here (and must be deallocated).
    var owned = false

    /// No room yet: the first append allocates.
    init() {
        base = OutputBuffer.nowhere
        capacity = 0
    }

    init(storage: UnsafeMutableBufferPointer<UInt8>) {
        base = storage.baseAddress ?? OutputBuffer.nowhere
        capacity = storage.baseAddress == nil ? 0 : storage.count
    }

    /// Where an empty buffer points: never written (its capacity is 0) and never freed. A string
    /// literal's bytes, a constant: an allocated global took a `swift_once` every line.
    static var nowhere: UnsafeMutablePointer<UInt8> { UnsafeMutablePointer(mutating: ("" as StaticString).utf8Start) }

    @inline(__always) mutating func append(_ source: UnsafePointer<UInt8>, count length: Int) {
        if count + length > capacity { grow(to: count + length) }
        (base + count).initialize(from: source, count: length)
        count += length
    }

    /// A placeholder (14 to 17 bytes): three overlapping eight-byte copies instead of a library
    /// call, which costs more than the copy for so few bytes.
    @inline(__always) mutating func appendPlaceholder(_ placeholder: StaticString) {
        let length = placeholder.utf8CodeUnitCount
        assert(length >= 8 && length <= 24)
        if count + length > capacity { grow(to: count + length) }
        let source = UnsafeRawPointer(placeholder.utf8Start)
        let target = UnsafeMutableRawPointer(base + count)
        target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
        target.storeBytes(
            of: source.loadUnaligned(fromByteOffset: length / 2 - 4, as: UInt64.self), toByteOffset: length / 2 - 4,
            as: UInt64.self)
        target.storeBytes(
            of: source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self), toByteOffset: length - 8,
            as: UInt64.self)
        count += length
    }

    mutating func grow(to needed: Int) {
        let newCapacity = max(needed, 2 * capacity, 16)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        if owned { base.deallocate() }
        base = newBase
        capacity = newCapacity
        owned = true
    }

    func array() -> [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    func deallocate() { if owned { base.deallocate() } }
}
