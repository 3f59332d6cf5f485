//! The fast path of the parser builds exactly the record the pest grammar builds, on every
//! game it accepts, and leaves every syntax error to the grammar (src/record/fast.rs).

use arbiter::record::fast::parse_fast;
use arbiter::record::parse::parse_game_pest;
use arbiter::record::split::split_games;
use proptest::prelude::*;
use std::path::Path;

/// Compares both parsers on every game of `text`; returns (games, games on the fast path).
fn compare(text: &str, what: &str) -> (usize, usize) {
    let mut fast_games = 0;
    let spans = split_games(text);
    for s in &spans {
        let src = &text[s.start..s.end];
        if let Some(f) = parse_fast(src, s.start) {
            fast_games += 1;
            let p = parse_game_pest(src, s.start);
            assert_eq!(f, p, "{what} at byte {}", s.start);
        }
    }
    (spans.len(), fast_games)
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("arb" | "pgn")) {
            out.push(p);
        }
    }
}

#[test]
fn identical_records_on_fixtures_and_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("fixtures"), &mut files);
    let corpus = root.join("../shared/corpus/xiangqi");
    if corpus.is_dir() {
        walk(&corpus, &mut files);
    } else {
        eprintln!("SKIPPED: ../shared/corpus/xiangqi is absent (fixtures only)");
    }
    let (mut games, mut fast) = (0, 0);
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let (g, ff) = compare(&text, &f.display().to_string());
        games += g;
        fast += ff;
    }
    assert!(games > 100, "{games} games compared");
    // Nearly every game takes the fast path; the rest are the deliberately broken fixtures.
    assert!(
        fast * 10 > games * 8,
        "{fast} of {games} games on the fast path"
    );
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("[Game \"stratego\"]".to_string()),
        Just("[A \"v\\\"w\"]".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("setup".to_string()),
        Just("red".to_string()),
        Just(" 4 B4B4323222".to_string()),
        Just("setup red\n 4 B4B4323222\n 3 ..........".to_string()),
        Just(" 3 ..........".to_string()),
        Just("4".to_string()),
        Just("12.".to_string()),
        Just("3...".to_string()),
        Just("a4-a5".to_string()),
        // the four-byte turns the fast path takes in one step, and look-alikes
        Just("h2e2".to_string()),
        Just("H2E2".to_string()),
        Just("a1x2".to_string()),
        Just("x1x2".to_string()),
        Just("99999999999999999999.".to_string()),
        Just("00000000000000000001.".to_string()),
        Just("018446744073709551615...".to_string()),
        Just("18446744073709551616...".to_string()),
        Just("a4xa5(3:B)".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("(R)".to_string()),
        Just("(:B)".to_string()),
        Just("(?)".to_string()),
        Just("(a:)".to_string()),
        Just("1-0)".to_string()),
        Just("*)".to_string()),
        Just(",".to_string()),
        Just("{c}".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("; x".to_string()),
        Just("$1".to_string()),
        Just("1-0".to_string()),
        Just("*".to_string()),
        Just("1/2-1/2".to_string()),
        Just("炮二平五".to_string()),
        Just("\u{feff}".to_string()),
        Just("\"".to_string()),
        "[a-z0-9.?]{1,4}",
    ]
}

fn sep() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(" ".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("\r".to_string()),
        Just("".to_string()),
        Just("\t".to_string()),
        Just(" \t ".to_string()),
        Just("  , ".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn fast_path_agrees_with_the_grammar(parts in proptest::collection::vec((token(), sep()), 0..30)) {
        let text: String = parts.iter().map(|(t, s)| format!("{t}{s}")).collect();
        if let Some(f) = parse_fast(&text, 3) {
            prop_assert_eq!(f, parse_game_pest(&text, 3), "{:?}", text);
        }
    }
}

/// A well-formed movetext: moves, numbers, comments, NAGs and results, with variations
/// nested up to four deep, separated by white space or a comment.
fn movetext() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("h2e2".to_string()),
        Just("a4-a5".to_string()),
        Just("a5xa6(3:B)".to_string()),
        Just("炮二平五".to_string()),
        Just("1.".to_string()),
        Just("2...".to_string()),
        Just("$14".to_string()),
        Just("{c}".to_string()),
        Just("*".to_string()),
        Just("1-0".to_string()),
    ];
    let sep = prop_oneof![
        Just(" "),
        Just("\n"),
        Just(" {x} "),
        Just(" ; y\n"),
        Just("\t")
    ];
    leaf.prop_recursive(4, 64, 8, move |inner| {
        proptest::collection::vec((inner, sep.clone()), 1..8).prop_map(|items| {
            let body: String = items.iter().map(|(t, s)| format!("{t}{s}")).collect();
            format!("({body})")
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn variations_take_the_fast_path(items in proptest::collection::vec(movetext(), 1..12)) {
        let text = format!("[Game \"xiangqi\"]\n\n1. h2e2 {}\n", items.join(" "));
        let fast = parse_fast(&text, 3);
        prop_assert!(fast.is_some(), "{:?} goes to pest", text);
        prop_assert_eq!(fast.unwrap(), parse_game_pest(&text, 3), "{:?}", text);
    }
}
