//! Every game of a file is reported, in order, with findings of its own (issue 20): files of
//! many games, written every way a hostile or careless writer might (one-line games, comments
//! over several lines and on tag lines, tag-like lines inside comments, truncated and
//! tags-only games, garbage lines, LF, CRLF, lone-CR and mixed line ends), are judged game by
//! game exactly as each game is judged alone: the same findings (code, ply, message, span
//! relative to the game), plies and outcome. The same for Gravon XML files with broken games
//! among good ones.
//!
//! The generator knows where each game starts because it writes them one after another; the
//! only rules it follows are the documented ones (docs/log-format.md, Games): a line that
//! starts like a tag but is not one is a game of its own, unless it follows a game of tags
//! only (whose body it then is); anything else after a game belongs to that game.

use arbiter::pipeline::{check_source, GameReport, Options, Source};
use proptest::prelude::*;

/// The games a unit may be (before its decorations): tags, other header lines (setups), the
/// movetext tokens and the result token.
struct Template {
    tags: &'static [&'static str],
    setup: &'static [&'static str],
    moves: &'static [&'static str],
    result: &'static str,
}

const TEMPLATES: [Template; 4] = [
    Template {
        tags: &["[Game \"jungle\"]", "[Result \"*\"]"],
        setup: &[],
        moves: &["1.", "g3-g4", "a7-a6", "2.", "g4-g5", "a6-a5"],
        result: "*",
    },
    Template {
        tags: &[
            "[Game \"xiangqi\"]",
            "[Event \"a [b] {c} ;d\"]",
            "[Result \"*\"]",
        ],
        setup: &[],
        moves: &["1.", "h2e2", "h9g7", "2.", "h0g2", "i9h9"],
        result: "*",
    },
    Template {
        tags: &["[Game \"barrage\"]", "[Result \"*\"]"],
        setup: &[
            "setup blue",
            " 10 FBS2239X..",
            "  9 ..........",
            "  8 ..........",
            "  7 ..........",
            "setup red",
            "  4 ..........",
            "  3 ..........",
            "  2 ..........",
            "  1 FBS2239X..",
        ],
        moves: &["1.", "h1-h2", "h10-h9", "2.", "h2-h3", "h9-h8"],
        result: "*",
    },
    // An illegal move on ply 2 (a Rat does not jump), and a result that disagrees.
    Template {
        tags: &["[Game \"jungle\"]", "[Result \"1-0\"]"],
        setup: &[],
        moves: &["1.", "g3-g4", "a7-c7", "2.", "g4-g5"],
        result: "0-1",
    },
];

/// Garbage a writer leaves between games; the first three start like a tag, and no other
/// holds a `[` outside a comment (which would start a game where it stands).
const GARBAGE: [&[u8]; 8] = [
    b"[garbage",
    b"[Bad \"x\" y]",
    b"[Event \"no end",
    b"}",
    b"%%% junk 1-0",
    b"1. zz-zz9 *",
    b"\x1b]0;a title\x07",
    b"\xff\xfe not UTF-8",
];

/// How one game is written.
#[derive(Debug, Clone)]
pub struct Shape {
    template: usize,
    /// Tags and moves on one line (never with setup rows, which need lines of their own).
    one_line: bool,
    /// A comment after the first tag: none, a brace comment over lines holding tag-like
    /// lines, or a `;` comment holding a tag and a `{`.
    tag_comment: u8,
    /// A comment in the movetext after this many tokens: none, over lines, or `;`.
    move_comment: (u8, usize),
    /// A NAG after this many move tokens, if any.
    nag: Option<usize>,
    /// Only this many movetext tokens, and no result token (a record cut short); 0: only the
    /// header (a game of tags only, but for setups).
    truncate: Option<usize>,
    /// What separates it from the next game: a line end, a space, nothing.
    gap: u8,
    /// A garbage line after it.
    garbage: Option<usize>,
}

pub fn shape() -> impl Strategy<Value = Shape> {
    (
        0..TEMPLATES.len(),
        any::<bool>(),
        0u8..3,
        (0u8..3, 0usize..7),
        proptest::option::of(0usize..7),
        proptest::option::weighted(0.3, 0usize..7),
        0u8..4,
        proptest::option::weighted(0.3, 0..GARBAGE.len()),
    )
        .prop_map(
            |(template, one_line, tag_comment, move_comment, nag, truncate, gap, garbage)| Shape {
                template,
                one_line,
                tag_comment,
                move_comment,
                nag,
                truncate,
                gap,
                garbage,
            },
        )
}

/// The lines of one game as `shape` writes it, and whether it has a body (anything besides
/// tags and comments).
fn game_lines(s: &Shape) -> (Vec<Vec<u8>>, bool) {
    let t = &TEMPLATES[s.template];
    let one_line = s.one_line && t.setup.is_empty();
    let mut header: Vec<String> = t.tags.iter().map(|t| t.to_string()).collect();
    match s.tag_comment {
        1 => header[0].push_str(" {a comment\n[Game \"fake\"]\n[Result \"1-0\"]\n}"),
        2 => header[0].push_str(" ; [Game \"fake\"] {\n"),
        _ => {}
    }
    let n = s.truncate.map_or(t.moves.len(), |k| k.min(t.moves.len()));
    let mut text: Vec<String> = Vec::new();
    for (i, m) in t.moves[..n].iter().enumerate() {
        text.push(m.to_string());
        if s.nag == Some(i) {
            text.push("$14".into());
        }
        if s.move_comment.1 == i {
            match s.move_comment.0 {
                1 => text.push("{over\n[Event \"inside\"]\nlines}".into()),
                2 => text.push("; [Game \"x\"] {\n".into()),
                _ => {}
            }
        }
    }
    if s.truncate.is_none() {
        text.push(t.result.into());
    }
    let body = !t.setup.is_empty() || !text.is_empty();
    let mut out = header.join(if one_line { " " } else { "\n" });
    out.push(if one_line { ' ' } else { '\n' });
    for row in t.setup {
        out.push_str(row);
        out.push('\n');
    }
    out.push_str(&text.join(" "));
    (
        out.split('\n').map(|l| l.as_bytes().to_vec()).collect(),
        body,
    )
}

/// A file of games: the bytes, and where each game (as a game alone would be judged) starts
/// and ends.
pub struct File {
    pub bytes: Vec<u8>,
    pub games: Vec<(usize, usize)>,
}

/// Writes `shapes` one after another with line ends `eol` (0 LF, 1 CRLF, 2 CR, 3 mixed,
/// chosen by `mix`).
pub fn write_file(shapes: &[Shape], eol: u8, mix: u64) -> File {
    let mut bytes = Vec::new();
    let mut games: Vec<(usize, usize)> = Vec::new();
    let mut mix = mix;
    let mut line_end = || -> &'static [u8] {
        let k = if eol == 3 {
            mix = mix.rotate_left(7) ^ 0x9E37_79B9;
            (mix % 3) as u8
        } else {
            eol
        };
        [b"\n".as_slice(), b"\r\n", b"\r"][k as usize]
    };
    for s in shapes {
        let (lines, body) = game_lines(s);
        games.push((bytes.len(), 0));
        for (i, l) in lines.iter().enumerate() {
            if i > 0 {
                bytes.extend_from_slice(line_end());
            }
            bytes.extend_from_slice(l);
        }
        let ends_in_line_comment = lines.last().is_some_and(|l| l.contains(&b';'));
        match s.gap {
            1 if !ends_in_line_comment => bytes.push(b' '),
            2 if !ends_in_line_comment => {}
            _ => bytes.extend_from_slice(line_end()),
        }
        if let Some(g) = s.garbage {
            let g = GARBAGE[g];
            // A tag-like garbage line after a game of tags only is that game's body, not a
            // game of its own.
            if g[0] == b'[' && body {
                games.push((bytes.len(), 0));
            }
            bytes.extend_from_slice(g);
            bytes.extend_from_slice(line_end());
        }
    }
    // Each game ends where the next starts.
    for i in 1..games.len() {
        games[i - 1].1 = games[i].0;
    }
    if let Some(last) = games.last_mut() {
        last.1 = bytes.len();
    }
    File { bytes, games }
}

/// What one report says, with spans relative to `base`: the part of a game's judgement that
/// must not depend on the games around it. The finding of a game that names no ruleset is
/// given once a file, on its first such game, so it is left out.
pub fn verdict(r: &GameReport, base: usize) -> String {
    let mut out = format!(
        "game {:?} plies {} outcome {:?}\n",
        r.game, r.plies, r.outcome
    );
    let once_a_file = |f: &&arbiter::Finding| f.rule == arbiter::finding::Rule::LogNoGameTag;
    for f in r.findings.iter().filter(|f| !once_a_file(f)) {
        out.push_str(&format!(
            "{} {:?} {}..{} {}\n",
            f.code,
            f.ply,
            f.span.start as i64 - base as i64,
            f.span.end as i64 - base as i64,
            f.message
        ));
    }
    out
}

/// Checks that `file`'s games are reported one for one, in order, each as it is alone.
fn assert_each_game_alone(name: &str, file: &File) -> Result<(), TestCaseError> {
    let opts = Options::default();
    let all = check_source(&Source::from_bytes(name, file.bytes.clone()), &opts);
    prop_assert_eq!(
        all.len(),
        file.games.len(),
        "{} games reported for {} written:\n{}",
        all.len(),
        file.games.len(),
        String::from_utf8_lossy(&file.bytes)
    );
    for (i, (r, &(start, end))) in all.iter().zip(&file.games).enumerate() {
        let alone_bytes = file.bytes[start..end].to_vec();
        let alone = check_source(&Source::from_bytes(name, alone_bytes), &opts);
        prop_assert_eq!(alone.len(), 1, "game {} alone is one game", i);
        prop_assert_eq!(r.index, i);
        prop_assert_eq!(
            verdict(r, start),
            verdict(&alone[0], 0),
            "game {} of:\n{}",
            i,
            String::from_utf8_lossy(&file.bytes)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_game_of_a_native_file_is_reported_as_it_is_alone(
        shapes in proptest::collection::vec(shape(), 1..8),
        eol in 0u8..4,
        mix in any::<u64>(),
    ) {
        let file = write_file(&shapes, eol, mix);
        assert_each_game_alone("many.arb", &file)?;
    }

    #[test]
    fn every_game_of_a_gravon_file_is_reported_as_it_is_alone(
        games in proptest::collection::vec((0usize..GRAVON_DAMAGE.len(), 1usize..8), 1..6),
    ) {
        let (text, starts) = gravon_file(&games);
        let opts = Options::default();
        let all = check_source(&Source::from_bytes("many.xml", text.clone().into_bytes()), &opts);
        prop_assert_eq!(all.len(), games.len(), "{}", text);
        for (i, (r, (&(damage, moves), &start))) in all.iter().zip(games.iter().zip(&starts)).enumerate() {
            let (alone, alone_starts) = gravon_file(&[(damage, moves)]);
            let a = check_source(&Source::from_bytes("many.xml", alone.into_bytes()), &opts);
            prop_assert_eq!(a.len(), 1);
            prop_assert_eq!(
                verdict(r, start),
                verdict(&a[0], alone_starts[0]),
                "game {} of:\n{}", i, text
            );
        }
    }
}

/// A clean Gravon game's moves (the corpus's classic opening, fixtures/gravon).
const GRAVON_MOVES: [(&str, &str); 8] = [
    ("E4", "E5"),
    ("E7", "E6"),
    ("E5", "E6"),
    ("E8", "E7"),
    ("F4", "F5"),
    ("E7", "E6"),
    ("F5", "E5"),
    ("A7", "A6"),
];

/// What may be wrong with a Gravon game: nothing, broken XML in a move, an unknown entity,
/// an element never closed (the game cut short), an element arbiter does not read, text, a
/// second result; or what must not confuse the cut: a `<game>` in a comment or CDATA.
const GRAVON_DAMAGE: [&str; 9] = [
    "",
    "<move id=\"9\" source=\"A1\" target=/>",
    "<move id=\"9\" source=\"&bogus;\" target=\"A2\"/>",
    "<move id=\"9\" source=\"A1\" target=\"A2\">",
    "<unknown a=\"1\"/>",
    "stray text",
    "<result type=\"1\" winner=\"2\"/>",
    "<!-- a <game> in a comment -->",
    "<![CDATA[<game type=\"classic\">]]>",
];

/// A Gravon file of `games` (damage, moves), and where each `<game` tag is.
fn gravon_file(games: &[(usize, usize)]) -> (String, Vec<usize>) {
    let field = "DBMBEHFGEDFDGHBEDJFIHIDBGJEIHDDEBFCLBGKDAA__AA__AAAA__AA__AASNRTXOUTVPPQPNWPNQPRQUSPNRQSVTPNYNUQTRSP";
    let mut text = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<stratego>\n");
    let mut starts = Vec::new();
    for &(damage, moves) in games {
        starts.push(text.len() + 1);
        text.push_str(&format!(
            " <game type=\"classic\">\n  <field content=\"{field}\"/>\n"
        ));
        for (i, (from, to)) in GRAVON_MOVES.iter().take(moves).enumerate() {
            text.push_str(&format!(
                "  <move id=\"{}\" source=\"{from}\" target=\"{to}\"/>\n",
                i + 1
            ));
        }
        text.push_str("  <result type=\"4\" winner=\"3\"/>\n");
        if !GRAVON_DAMAGE[damage].is_empty() {
            text.push_str(&format!("  {}\n", GRAVON_DAMAGE[damage]));
        }
        text.push_str(" </game>\n");
    }
    text.push_str("</stratego>\n");
    (text, starts)
}

/// Pieces of native logs, for soups with no structure at all (raw bytes among them: a lone
/// byte of a BOM once looped the splitter).
const SOUP: [&[u8]; 28] = [
    b"[Game \"jungle\"]",
    b"[Game \"xiangqi\"]",
    b"[Result \"*\"]",
    b"[Event \"a [b] {c} ;d\"]",
    b"[GAME  \"jungle\"]",
    b"[Bad \"x\" y]",
    b"[garbage",
    b"1.",
    b"g3-g4",
    b"a7-a6",
    b"h2e2",
    b"*",
    b"1-0",
    b"{a comment}",
    b"{over\n[Game \"fake\"]\n}",
    b"; [Game \"x\"] {",
    b"}",
    b"{",
    b"\n",
    b"\r\n",
    b"\r",
    b" ",
    b"\x1b[2J",
    b"\xEF\xBB\xBF",
    b"\xEF",
    b"\xBB\xBF",
    b"\xFF",
    b"\t",
];

/// The reports of `bytes` read as the command line reads a file (cut before any repair), its
/// games that name no ruleset taking `content` (the ruleset the whole file's text shows).
fn reports_of(bytes: &[u8], content: Option<arbiter::GameId>) -> Vec<Vec<GameReport>> {
    arbiter::input::chunks_of_text("soup.arb", bytes.to_vec())
        .iter_mut()
        .map(|c| {
            c.content_game = content;
            arbiter::pipeline::check_chunk(c, &Options::default())
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever the bytes, the cut is the grammar's: the games are in order, nothing but white
    /// space lies outside them, and each is judged exactly as it is alone (the invariant the
    /// `multigame` fuzz target checks on its inputs too).
    #[test]
    fn any_text_is_judged_game_by_game_as_each_game_alone(
        pieces in proptest::collection::vec(proptest::sample::select(SOUP.to_vec()), 0..60),
    ) {
        let bytes = pieces.concat();
        let chunks = arbiter::input::chunks_of_text("soup.arb", bytes.clone());
        let mut end = 0;
        for c in chunks.iter().filter(|c| c.kind == arbiter::input::ChunkKind::Native) {
            prop_assert!(c.offset >= end);
            let gap = &bytes[end..c.offset];
            prop_assert!(gap.iter().all(|b| b" \t\r\n\xEF\xBB\xBF".contains(b)), "{:?}", gap);
            end = c.offset + c.text.len();
            let here = arbiter::pipeline::check_chunk(c, &Options::default());
            let alone = reports_of(&bytes[c.offset..end], c.content_game);
            prop_assert_eq!(here.len(), 1);
            prop_assert_eq!(alone.len(), 1);
            prop_assert_eq!(verdict(&here[0], c.offset), verdict(&alone[0][0], 0), "{:?}", bytes);
        }
        prop_assert!(bytes[end..].iter().all(|b| b" \t\r\n\xEF\xBB\xBF".contains(b)));
    }
}

/// Found by the property above: a comment left open before a game's tags, and another
/// after them. The cut after a comment that never closes takes the game up where the comment
/// opened (here: in its tag section, so `[Game` and the broken `[Bad` line stay in it), so a
/// file and each of its games alone are cut the same.
#[test]
fn a_comment_left_open_in_the_tag_section_cuts_the_same_alone() {
    let bytes = b"{\n[Game \"jungle\"]{\n[Bad \"x\" y]".to_vec();
    let chunks = arbiter::input::chunks_of_text("soup.arb", bytes.clone());
    assert_eq!(
        chunks.len(),
        1,
        "one game: the tags follow a comment of its tag section"
    );
    for tail in [&bytes[..], &bytes[2..]] {
        let pieces = arbiter::input::chunks_of_text("soup.arb", tail.to_vec());
        assert_eq!(pieces.len(), 1, "{:?}", String::from_utf8_lossy(tail));
    }
}
