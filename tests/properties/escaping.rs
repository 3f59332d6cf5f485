//! Nothing a log holds reaches the terminal raw (issue 21): for random logs with control
//! characters, bare CRs, bidirectional overrides and zero-width characters in tags, comments
//! and moves, the human report (with colours) holds no byte below 0x20 but the line feed and
//! the colour codes arbiter writes itself, and the place each report names in its excerpt
//! header (`╭─[file:line:column]`, or `at file:line:column` when the line is too long to
//! draw) is the finding's JSON `line` and `column`.

use arbiter::run::{self, CheckOptions, Format};
use arbiter::Code;
use proptest::prelude::*;
use serde_json::Value;

/// Characters a hostile log mixes into its text.
const NASTY: [char; 22] = [
    '\u{1b}', '\u{7}', '\u{8}', '\u{0}', '\t', '\u{b}', '\u{c}', '\r', '\r', '\u{7f}', '\u{85}',
    '\u{9b}', '\u{202e}', '\u{2066}', '\u{200f}', '\u{200b}', '\u{feff}', '[', '{', '}', ';', '\n',
];

/// A text of plain letters with hostile characters among them.
fn nasty_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            3 => proptest::sample::select(vec!['a', 'b', ' ', '1', '-', 'é', '炮', '"']),
            2 => proptest::sample::select(NASTY.to_vec()),
        ],
        0..12,
    )
    .prop_map(|v| v.into_iter().collect())
}

/// One piece of a log: a tag, a comment or a move, each possibly hostile.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        nasty_text().prop_map(|t| format!("[Event \"{t}\"]\n")),
        nasty_text().prop_map(|t| format!("{{{t}}} ")),
        nasty_text().prop_map(|t| format!("; {t}\n")),
        nasty_text().prop_map(|t| format!("g3-g4{t} ")),
        proptest::sample::select(vec!["1. ", "g3-g4 ", "a7-a6 ", "2. ", "g4-g5 ", "* ", "\r"])
            .prop_map(String::from),
    ]
}

fn log() -> impl Strategy<Value = String> {
    (
        proptest::sample::select(vec!["jungle", "xiangqi", "barrage"]),
        proptest::collection::vec(piece(), 0..14),
    )
        .prop_map(|(game, pieces)| format!("[Game \"{game}\"]\n{}", pieces.concat()))
}

/// Runs `check` on `path` in `format` (colours on): the report and the exit status.
fn check(path: &std::path::Path, format: Format, color: bool) -> Vec<u8> {
    let opts = CheckOptions {
        format,
        color,
        ..CheckOptions::default()
    };
    let mut out = Vec::new();
    run::check(&[path.to_path_buf()], &opts, &mut out, &mut std::io::sink());
    out
}

/// `bytes` without the SGR colour sequences (`ESC [ digits ; ... m`) arbiter writes.
fn without_colours(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0x1b && bytes.get(i + 1) == Some(&b'[') {
            let mut j = i + 2;
            while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b';') {
                j += 1;
            }
            if bytes.get(j) == Some(&b'm') {
                i = j + 1;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

/// The places each report of a human report names, in order: every excerpt header's or
/// `at` line's `line:column` (miette draws labels far apart in separate excerpts, each with
/// its header, in the order of the file). A report starts at a line that is a finding code.
fn places(human: &str, name: &str) -> Vec<Vec<(u64, u64)>> {
    let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    let mut out: Vec<Vec<(u64, u64)>> = Vec::new();
    for line in human.lines() {
        if codes.contains(&line) {
            out.push(Vec::new());
            continue;
        }
        let Some(report) = out.last_mut() else {
            continue;
        };
        let at = line
            .find(&format!("[{name}:"))
            .map(|i| i + name.len() + 2)
            .or_else(|| {
                line.find(&format!("at {name}:"))
                    .map(|i| i + name.len() + 4)
            });
        if let Some(i) = at {
            let mut it = line[i..]
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<u64>().expect("a number"));
            report.push((it.next().expect("line"), it.next().expect("column")));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn no_control_character_of_a_log_reaches_the_terminal(text in log()) {
        let dir = std::env::temp_dir().join(format!("arbiter-escaping-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("hostile.arb");
        std::fs::write(&path, &text).expect("write");
        let coloured = without_colours(&check(&path, Format::Human, true));
        let bad: Vec<u8> = coloured.iter().copied().filter(|&b| b < 0x20 && b != b'\n').collect();
        prop_assert!(bad.is_empty(), "bytes {:?} reached the report of {:?}", bad, text);

        let human = String::from_utf8(check(&path, Format::Human, false)).expect("UTF-8");
        let doc: Value = serde_json::from_slice(&check(&path, Format::Json, false)).expect("JSON");
        let json: Vec<(u64, u64)> = doc["games"]
            .as_array()
            .expect("games")
            .iter()
            .flat_map(|g| g["findings"].as_array().expect("findings").clone())
            .map(|f| (f["line"].as_u64().expect("line"), f["column"].as_u64().expect("column")))
            .collect();
        let name = path.display().to_string();
        // Every report names the place JSON gives among its excerpts' headers.
        let human_places = places(&human, &name);
        prop_assert_eq!(human_places.len(), json.len(), "{:?}\n{}", text, human);
        for (named, at) in human_places.iter().zip(&json) {
            prop_assert!(named.contains(at), "{:?} not in {:?}: {:?}\n{}", at, named, text, human);
        }
    }
}
