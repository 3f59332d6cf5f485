//! A log cannot falsify its report (issue 21): control characters, bare carriage returns,
//! bidirectional overrides and zero-width characters from the log are drawn as visible
//! stand-ins in the human report, with `--color never` as with colours, and the excerpt's
//! line and column are the JSON's. The property over random logs is in
//! `tests/properties/escaping.rs`; these are the escaped excerpts, as snapshots.

use crate::bin::{self, Run};
use serde_json::Value;

/// Three games: ESC sequences that would clear the screen (in a tag), hide text (in a
/// comment) and sit in a move, with a bare CR before the move; a right-to-left override before
/// a move; a tab, a zero-width space and a DEL.
const HOSTILE: &[u8] = b"[Game \"jungle\"]\n[Event \"\x1b[2J\x1b[H cleared\"]\n[Result \"*\"]\n{\x1b[8m hidden \x1b[0m} 1. g3-g4 a7-a6\r 2. g4\x1bg5 *\n\n[Game \"jungle\"]\n[Result \"1-0\"]\n1. g3-g4 \xe2\x80\xaea7-a6 *\n\n[Game \"jungle\"]\n[Result \"*\"]\n1. g3-g4\ta7-a6 2. g4-g5\xe2\x80\x8b a6-a5\x7f *\n";

fn run(dir: &std::path::Path, args: &[&str]) -> Run {
    bin::arbiter(args).current_dir(dir).run()
}

fn workdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-escaping-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn control_characters_are_drawn_visibly() {
    let d = workdir("visible");
    std::fs::write(d.join("hostile.arb"), HOSTILE).expect("write");
    for color in ["never", "always"] {
        let out = run(&d, &["check", "--color", color, "hostile.arb"]);
        assert_eq!(out.code, 2);
        // Without arbiter's own colour codes, no control character but the line feed.
        let text = out.stdout;
        let plain: String = text
            .split('\x1b')
            .enumerate()
            .map(|(i, part)| {
                if i == 0 {
                    part
                } else {
                    part.split_once('m').map_or(part, |(_, rest)| rest)
                }
            })
            .collect();
        assert!(
            plain.chars().all(|c| c >= ' ' || c == '\n'),
            "--color {color}: {plain:?}"
        );
        if color == "never" {
            assert!(!text.contains('\x1b'));
            insta::assert_snapshot!("escaped_excerpts", text);
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn excerpt_places_are_the_json_places() {
    let d = workdir("places");
    std::fs::write(d.join("hostile.arb"), HOSTILE).expect("write");
    let human = run(&d, &["check", "--color", "never", "hostile.arb"]).stdout;
    let doc: Value =
        serde_json::from_str(&run(&d, &["check", "--format", "json", "hostile.arb"]).stdout)
            .expect("JSON");
    let headers: Vec<String> = human
        .lines()
        .filter_map(|l| l.split_once("╭─[hostile.arb:"))
        .map(|(_, rest)| rest.trim_end_matches(']').to_string())
        .collect();
    let json: Vec<String> = doc["games"]
        .as_array()
        .expect("games")
        .iter()
        .flat_map(|g| g["findings"].as_array().expect("findings").clone())
        .map(|f| format!("{}:{}", f["line"], f["column"]))
        .collect();
    assert_eq!(headers, json);
    // The bare CR does not start a line: the move after it is on line 4, column 39.
    assert_eq!(json[0], "4:39");
    let _ = std::fs::remove_dir_all(&d);
}

/// The text a log writer (`convert`, `show --log`) gives for [`HOSTILE`] into a pipe and to a
/// terminal: `write(input, terminal, out, err)` runs it.
fn piped_and_shown(
    name: &str,
    write: impl Fn(&arbiter::input::Input, bool, &mut Vec<u8>, &mut Vec<u8>),
) -> (String, String) {
    let d = workdir(name);
    let path = d.join("hostile.arb");
    std::fs::write(&path, HOSTILE).expect("write");
    let input = arbiter::input::Input::File(path);
    let text = |terminal: bool| {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        write(&input, terminal, &mut out, &mut err);
        String::from_utf8(out).expect("utf-8")
    };
    let both = (text(false), text(true));
    let _ = std::fs::remove_dir_all(&d);
    both
}

/// `convert` keeps every byte the user wrote in a file or a pipe, and draws the same control
/// characters as stand-ins when its standard output is a terminal.
#[test]
fn convert_escapes_only_for_a_terminal() {
    let (piped, shown) = piped_and_shown("convert", |input, terminal, out, err| {
        let req = arbiter::convert::ConvertRequest {
            terminal,
            ..Default::default()
        };
        let overrides = arbiter::rules::Overrides::default();
        arbiter::convert::run(input, &overrides, &req, false, out, err);
    });
    assert!(piped.contains("{\x1b[8m hidden \x1b[0m}"), "{piped}");
    assert!(piped.contains("\u{202e}a7-a6"), "{piped}");
    assert!(
        shown.contains("{\u{241b}[8m hidden \u{241b}[0m}"),
        "{shown}"
    );
    assert!(shown.contains("\u{21c6}a7-a6"), "{shown}");
    assert!(shown.chars().all(|c| c >= ' ' || c == '\n'), "{shown:?}");
    assert_eq!(piped.lines().count(), shown.lines().count());
}

/// `show --log` writes the same tags as `convert`: escaped for a terminal only.
#[test]
fn show_log_escapes_only_for_a_terminal() {
    let (piped, shown) = piped_and_shown("showlog", |input, terminal, out, err| {
        let req = arbiter::show::ShowRequest {
            ply: 1,
            log: true,
            terminal,
            ..Default::default()
        };
        arbiter::show::run(input, &req, out, err);
    });
    assert!(piped.contains("\x1b[2J\x1b[H cleared"), "{piped}");
    assert!(shown.contains("\u{241b}[2J\u{241b}[H cleared"), "{shown}");
    assert!(shown.chars().all(|c| c >= ' ' || c == '\n'), "{shown:?}");
}

/// A file name with ESC, CR and LF is drawn with stand-ins in every message that names it:
/// `--statistics`' table of files (its LF once forged a row), `show --line` and `claim
/// --line` past the last line, `report --as` a side the game has not.
#[test]
fn a_hostile_file_name_is_drawn_visibly_in_every_message() {
    let d = workdir("names");
    let name = "x\x1b[31mr\rn\nl.arb";
    // A wrong move number: a warning, so that the file is in the table of files.
    let game = "[Game \"jungle\"]\n[Result \"*\"]\n3. g3-g4 a7-a6 *\n";
    std::fs::write(d.join(name), game).expect("write");
    let runs = [
        run(&d, &["check", "--statistics", "--color", "never", "."]),
        run(&d, &["show", "--ply", "1", "--line", "2", name]),
        run(&d, &["claim", "--ply", "1", "--line", "2", name, "draw"]),
        run(&d, &["report", "-o", "page.html", "--as", "white", name]),
    ];
    let shown = "x␛[31mr␍n␊l.arb";
    for (i, r) in runs.iter().enumerate() {
        let text = format!("{}{}", r.stdout, r.stderr);
        assert!(
            text.chars().all(|c| c >= ' ' || c == '\n') && text.contains(shown),
            "run {i}: {text:?}"
        );
    }
    assert!(runs[1].stderr.contains(
        "has 1 line; there is no line 2 (0 is the main line; the game has no variation)"
    ));
    let _ = std::fs::remove_dir_all(&d);
}

/// A file that cannot be read is named with its line feed drawn, and the help says what
/// arbiter reads rather than to check the path: the name's LF once broke the line.
#[test]
fn an_unreadable_file_s_name_stays_on_its_line() {
    let d = workdir("unreadable-name");
    std::fs::write(d.join("u\nv.arb"), [0xFF, 0xFE, b'[', 0]).expect("write");
    let out = run(&d, &["check", "--color", "never", "u\nv.arb"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stdout.contains("cannot read u␊v.arb: UTF-16 text"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("help: arbiter reads text logs in UTF-8"),
        "{}",
        out.stdout
    );
    let _ = std::fs::remove_dir_all(&d);
}
