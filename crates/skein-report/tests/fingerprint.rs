//! Test vectors for `primaryLocationLineHash` (see `src/fingerprint.rs`).
//!
//! How the expected values were derived: the function `hash` of
//! github/codeql-action `src/fingerprints.ts` (the code the `upload-sarif`
//! action runs to fill in missing fingerprints) was re-expressed as a small
//! standalone node script, with BigInt `asIntN(64, ..)` arithmetic in place of
//! the `long` package and the file read with `fs.createReadStream(path,
//! "utf8")` as the action does. The script was first checked against the
//! expectations in the action's own `src/fingerprints.test.ts` (the
//! `EMPTY`/`ACTION_TESTS` vectors below reproduce some of them), then run with
//! node 20 on the other inputs here, written to files byte for byte.
//! Inputs are bytes, decoded like skein decodes a file (lossy UTF-8, which
//! substitutes U+FFFD as node's decoder does).

use skein_report::fingerprint::LineHashes;

fn hashes(bytes: &[u8]) -> Vec<String> {
    LineHashes::new(&String::from_utf8_lossy(bytes))
        .hashes()
        .to_vec()
}

/// The empty file, and the hash of the line after a final newline.
const EMPTY: &str = "c129715d7a2bc9a3:1";

#[test]
fn vectors_from_the_action_tests() {
    assert_eq!(hashes(b""), [EMPTY]);
    assert_eq!(
        hashes(b" a\nb\n  \t\tc\n d"),
        [
            "271789c17abda88f:1",
            "54703d4cd895b18:1",
            "180aee12dab6264:1",
            "a23a3dc5e078b07b:1"
        ]
    );
    // `\n`, lone `\r` and `\r\n` line ends give the same hashes.
    let expected = [
        "e9496ae3ebfced30:1",
        "fb7c023a8b9ccb3f:1",
        "ce8ba1a563dcdaca:1",
        "e20e36e16fcb0cc8:1",
        "b3edc88f2938467e:1",
        "c8e28b0b4002a3a0:1",
        EMPTY,
    ];
    assert_eq!(
        hashes(b" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n"),
        expected
    );
    assert_eq!(
        hashes(b" hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r"),
        expected
    );
    assert_eq!(
        hashes(b" hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n"),
        expected
    );
}

#[test]
fn non_ascii_is_hashed_in_utf16_code_units() {
    // `é` is one code unit, the rocket a surrogate pair.
    assert_eq!(
        hashes("name: café 🚀 launch\ndescription: x\n".as_bytes()),
        ["62f88f6eda0e4eab:1", "5fef34af7ea8fbab:1", EMPTY]
    );
}

#[test]
fn a_line_longer_than_the_window() {
    let mut text = "k".repeat(150);
    text.push_str("\nshort\n");
    assert_eq!(
        hashes(text.as_bytes()),
        ["38ae8874fb795354:1", "8bf8ff854171d875:1", EMPTY]
    );
}

#[test]
fn identical_windows_are_numbered() {
    let h = hashes("ab\n".repeat(40).as_bytes());
    assert_eq!(h.len(), 41);
    for (i, v) in h[..7].iter().enumerate() {
        assert_eq!(v, &format!("94155610e84b82:{}", i + 1));
    }
    assert_eq!(h[7], "94155610e94b20:1");
    assert_eq!(h[8], "941556d6777f03:1");
    assert_eq!(h[9], "94ae07d027f8fa:1");
    assert_eq!(h[10], "7698aef42b5c5635:1");
    assert_eq!(h[39], "882bbb3d8de7a640:1");
    assert_eq!(h[40], EMPTY);
}

#[test]
fn byte_order_mark_and_crlf() {
    assert_eq!(
        hashes("\u{feff}{\r\n  \"a\": 1\r\n}\r\n".as_bytes()),
        [
            "c2f2906220fe0544:1",
            "8266b7077bdffbc:1",
            "32dce9ccfdbc9d3e:1",
            EMPTY
        ]
    );
}

#[test]
fn invalid_utf8_and_blank_lines() {
    assert_eq!(
        hashes(b"a\xff\xfeb\n\xe2\x82\nc"),
        [
            "887aafee4c099f54:1",
            "df062ad44b7d54b1:1",
            "188ff2f224477a1e:1"
        ]
    );
    assert_eq!(
        hashes(b"\t\t\n  \n\n"),
        [
            "4e5d562094661a0d:1",
            "5b5d4caf73a13177:1",
            "3c5bef55b72b93c9:1",
            EMPTY
        ]
    );
}
