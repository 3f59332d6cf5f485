//! Files of many games, written every hostile way (issue 20): native logs from tags, comments
//! that run over lines or hold tag-like text, `;` comments, moves, result tokens, garbage and
//! raw bytes, with LF, CRLF and lone-CR line ends; and Gravon files of good and broken games.
//! Every game must be judged exactly as it is alone ([`arbiter_fuzz::each_game_alone`]): in
//! order, nothing outside the games but white space, the same findings, plies and outcome.
#![no_main]
use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;

const TAGS: [&str; 8] = [
    "[Game \"jungle\"]",
    "[Game \"xiangqi\"]",
    "[Game \"barrage\"]",
    "[Result \"*\"]",
    "[Result \"1-0\"]",
    "[Event \"a [b] {c} ;d \\\" e\"]",
    "[GAME  \"jungle\"]",
    "[Bad \"x\" y]",
];
const MOVES: [&str; 10] = [
    "1.", "g3-g4", "a7-a6", "h2e2", "h9g7", "h1-h2", "h10-h9", "1...", "$14", "(g4-g5)",
];
const RESULTS: [&str; 4] = ["*", "1-0", "0-1", "1/2-1/2"];
const GARBAGE: [&str; 6] = ["[garbage", "}", "%%%", "[", "{", "\u{1b}[2J"];
const EOL: [&str; 3] = ["\n", "\r\n", "\r"];

#[derive(Arbitrary, Debug)]
enum Native {
    Tag(u8),
    Move(u8),
    Result(u8),
    /// A brace comment; with `true` it runs over a line holding a tag.
    Comment(bool),
    LineComment,
    Garbage(u8),
    Eol(u8),
    Space,
    Raw(Vec<u8>),
}

#[derive(Arbitrary, Debug)]
enum Gravon {
    /// A game of this many moves, and what is wrong with it (0: nothing).
    Game(u8, u8),
    Comment,
    Junk,
}

#[derive(Arbitrary, Debug)]
enum File {
    Native(Vec<Native>),
    Gravon(Vec<Gravon>),
}

fn native(tokens: &[Native]) -> Vec<u8> {
    let mut out = Vec::new();
    for t in tokens.iter().take(300) {
        let pick = |list: &[&str], i: &u8| list[*i as usize % list.len()].to_string();
        let text = match t {
            Native::Tag(i) => pick(&TAGS, i),
            Native::Move(i) => pick(&MOVES, i),
            Native::Result(i) => pick(&RESULTS, i),
            Native::Comment(false) => "{a comment}".into(),
            Native::Comment(true) => "{over\n[Game \"fake\"]\nlines}".into(),
            Native::LineComment => "; [Game \"x\"] {\n".into(),
            Native::Garbage(i) => pick(&GARBAGE, i),
            Native::Eol(i) => pick(&EOL, i),
            Native::Space => " ".into(),
            Native::Raw(bytes) => {
                out.extend(bytes.iter().take(16));
                continue;
            }
        };
        out.extend_from_slice(text.as_bytes());
    }
    out
}

const DAMAGE: [&str; 6] = [
    "",
    "<move id=\"9\" source=\"A1\" target=/>",
    "<move id=\"9\" source=\"A1\" target=\"A2\">",
    "<unknown/>",
    "stray text",
    "<result type=\"1\" winner=\"2\"/>",
];

fn gravon(items: &[Gravon]) -> Vec<u8> {
    let field = "DBMBEHFGEDFDGHBEDJFIHIDBGJEIHDDEBFCLBGKDAA__AA__AAAA__AA__AASNRTXOUTVPPQPNWPNQPRQUSPNRQSVTPNYNUQTRSP";
    let moves = [
        ("E4", "E5"),
        ("E7", "E6"),
        ("E5", "E6"),
        ("E8", "E7"),
        ("F4", "F5"),
    ];
    let mut s = String::from("<?xml version=\"1.0\"?>\n<stratego>\n");
    for item in items.iter().take(40) {
        match item {
            Gravon::Game(n, damage) => {
                s.push_str(&format!(
                    " <game type=\"classic\">\n  <field content=\"{field}\"/>\n"
                ));
                for (i, (a, b)) in moves.iter().take(*n as usize % 6).enumerate() {
                    s.push_str(&format!(
                        "  <move id=\"{}\" source=\"{a}\" target=\"{b}\"/>\n",
                        i + 1
                    ));
                }
                s.push_str(DAMAGE[*damage as usize % DAMAGE.len()]);
                s.push_str(" </game>\n");
            }
            Gravon::Comment => s.push_str("<!-- <game> in a comment -->\n"),
            Gravon::Junk => s.push_str("<![CDATA[<game>]]> junk\n"),
        }
    }
    s.push_str("</stratego>\n");
    s.into_bytes()
}

fuzz_target!(|file: File| {
    let (name, bytes) = match &file {
        File::Native(tokens) => ("many.arb", native(tokens)),
        File::Gravon(items) => ("many.xml", gravon(items)),
    };
    let opts = arbiter::Options::default();
    arbiter_fuzz::each_game_alone(name, &bytes, &opts);
    arbiter_fuzz::judge(name, &bytes, &opts);
});
