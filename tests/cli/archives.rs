//! The Xiangqi archive formats and variations as users meet them (issue 23): DhtmlXQ pages and
//! GBK text files known by their content and walked in directories, a variation's findings
//! named by their line in every format, `show --line` and `claim --line`, and a web page
//! without a record. The fixtures are `fixtures/dhtmlxq/` (each with its verdict worked out
//! in the text around its record).

use crate::bin;
use serde_json::Value;
use std::path::Path;

const PAGE: &str = "fixtures/dhtmlxq/variation-illegal.html";

#[test]
fn a_web_page_is_judged_line_by_line_and_the_report_names_the_line() {
    let run = bin::run(&["check", "--color", "never", PAGE]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("ply 6 of line 1: a Horse cannot move from c7 to c5"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("1 game, 2 lines, 7 plies"),
        "{}",
        run.stderr
    );
    insta::assert_snapshot!(
        "dhtmlxq_page_human",
        format!(
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            run.code, run.stdout, run.stderr
        )
    );
}

#[test]
fn json_and_sarif_give_each_finding_its_line() {
    let run = bin::run(&["check", "--format", "json", PAGE]);
    let doc: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let g = &doc["games"][0];
    assert_eq!(
        (g["lines"].as_u64(), g["variation_plies"].as_u64()),
        (Some(2), Some(3))
    );
    assert_eq!(g["plies"], 4);
    let f = &g["findings"];
    assert_eq!(
        (f[0]["code"].as_str(), f[0]["line_of_play"].as_u64()),
        (Some("result-mismatch"), Some(0))
    );
    assert!(f[0]["branch"].is_null());
    assert_eq!(f[1]["code"], "illegal-move");
    assert_eq!(
        (f[1]["ply"].as_u64(), f[1]["line_of_play"].as_u64()),
        (Some(6), Some(1))
    );
    assert_eq!(
        f[1]["branch"],
        serde_json::json!({"parent": 0, "ply": 3, "move": "b0c2", "replaces": "h0g2"})
    );
    // The span is the move's four digits in the page: line 11 of the file.
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(PAGE)).unwrap();
    let at = f[1]["offset"].as_u64().unwrap() as usize;
    assert_eq!(&text[at..at + 4], "2224");
    assert_eq!(f[1]["line"], 11);
    assert_eq!(doc["summary"]["lines"], 2);
    let sarif: Value =
        serde_json::from_str(&bin::run(&["check", "--format", "sarif", PAGE]).stdout).unwrap();
    let r = &sarif["runs"][0]["results"][1];
    assert_eq!(r["properties"]["lineOfPlay"], 1);
    assert!(r["message"]["text"]
        .as_str()
        .unwrap()
        .starts_with("ply 6 of line 1: "));
}

#[test]
fn show_and_claim_read_one_line() {
    let run = bin::run(&["show", PAGE, "--line", "1", "--ply", "5"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("after ply 5 (Red a0-a1)"),
        "{}",
        run.stdout
    );
    let main = bin::run(&["show", PAGE, "--ply", "4"]);
    assert!(
        main.stdout.contains("after ply 4 (Black i9-h9)"),
        "{}",
        main.stdout
    );
    let refused = bin::run(&["show", PAGE, "--line", "1", "--ply", "6"]);
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains("the replay stopped at ply 6 (illegal-move)"),
        "{}",
        refused.stderr
    );
    let none = bin::run(&["show", PAGE, "--line", "2", "--ply", "1"]);
    assert_eq!(none.code, 2);
    assert!(
        none.stderr
            .contains("has 2 lines; there is no line 2 (0 is the main line, 1 its variation)"),
        "{}",
        none.stderr
    );
    let claim = bin::run(&["claim", PAGE, "--line", "1", "--ply", "5", "repetition"]);
    assert_eq!(claim.code, 1, "{}{}", claim.stdout, claim.stderr);
    assert!(
        claim
            .stdout
            .starts_with("claim `repetition` after ply 5 (3. a0a1): does not hold"),
        "{}",
        claim.stdout
    );
}

#[test]
fn a_gbk_text_file_reads_its_chinese_and_its_result() {
    let run = bin::run(&[
        "check",
        "--format",
        "json",
        "fixtures/dhtmlxq/gbk-checkmate.txt",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let g = &doc["games"][0];
    assert_eq!(g["result"], "0-1");
    assert_eq!(
        g["outcome"],
        serde_json::json!({"result": "0-1", "reason": "checkmate", "ply": 1})
    );
    let native = bin::run(&["convert", "fixtures/dhtmlxq/gbk-checkmate.txt"]);
    assert!(
        native.stdout.contains("[Title \"残局\"]"),
        "{}",
        native.stdout
    );
    assert!(
        native
            .stdout
            .contains("[FEN \"3k5/9/9/9/9/9/9/r8/1r7/4K4 b - - 0 1\"]"),
        "{}",
        native.stdout
    );
}

#[test]
fn directories_are_walked_for_dhtmlxq_in_text_and_web_pages_only() {
    let dir = std::env::temp_dir().join(format!("arbiter-dhtmlxq-walk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join(PAGE), dir.join("a.html")).unwrap();
    std::fs::copy(
        root.join("fixtures/dhtmlxq/gbk-checkmate.txt"),
        dir.join("b.txt"),
    )
    .unwrap();
    std::fs::write(dir.join("README.txt"), "notes, no record").unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<html><body>no record</body></html>",
    )
    .unwrap();
    let run = bin::run(&["check", "--quiet", dir.to_str().unwrap()]);
    assert!(
        run.stderr.contains("2 files, 2 games, 3 lines"),
        "{}",
        run.stderr
    );
    assert_eq!(run.code, 1);
    let page = bin::run(&["check", dir.join("index.html").to_str().unwrap()]);
    assert_eq!(page.code, 2);
    assert!(
        page.stdout.contains("markup (a web page or XML) with no"),
        "{}",
        page.stdout
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A native log saved as `.txt` or `.log` is walked when it begins with a tag line (after a
/// BOM, white space and comments); other text files are passed over.
#[test]
fn directories_are_walked_for_native_logs_in_text_files() {
    let dir = std::env::temp_dir().join(format!("arbiter-text-walk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = "[Game \"xiangqi\"]\n[Result \"*\"]\n\n1. h2e2 h9g7 *\n";
    std::fs::write(
        dir.join("a.txt"),
        format!("; my game\n{{club night}}\n{game}"),
    )
    .unwrap();
    std::fs::write(dir.join("b.log"), format!("\u{feff}\n  {game}")).unwrap();
    std::fs::write(dir.join("notes.txt"), "notes, no record\n[Game \"x\"]\n").unwrap();
    std::fs::write(dir.join("c.log"), "[not a tag]\n").unwrap();
    std::fs::write(dir.join("d.log"), "; a comment never closed by a tag").unwrap();
    // XQF under another name is known by its magic and its 1 KB header; a short file is not.
    let mut xqf = b"XQ\x0a".to_vec();
    xqf.resize(1024, 0);
    std::fs::write(dir.join("e.bin"), &xqf).unwrap();
    std::fs::write(dir.join("f.bin"), b"XQ\x0a short").unwrap();
    // Gravon XML under another name is known by its first element.
    std::fs::write(
        dir.join("g.dat"),
        "<?xml version=\"1.0\"?>\n<stratego></stratego>\n",
    )
    .unwrap();
    std::fs::write(dir.join("h.dat"), "<html><game></game></html>\n").unwrap();
    let run = bin::run(&["check", "--format", "json", dir.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let names: Vec<&str> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["source"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(
        names,
        ["a.txt", "b.log", "e.bin", "g.dat"],
        "{}",
        run.stdout
    );
    // Read as XQF: its 32 piece bytes, all zero, put every piece on a0.
    let xqf = &v["games"][2]["findings"][0]["message"];
    assert_eq!(
        xqf, "two pieces on a0: `N` where `R` stands",
        "{}",
        run.stdout
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Logs a walk passed over and judged when named: after two byte order marks (the grammar
/// reads one anywhere as white space), after an opening comment longer than the head a walk
/// reads, and saved as "Unicode" (UTF-16 with or without a byte order mark, UTF-32), which is
/// then reported with how to save it. Text that is no log stays passed over, however long its
/// opening comment, and in UTF-16 too.
#[test]
fn a_walk_takes_every_log_it_would_judge_when_named() {
    let dir = std::env::temp_dir().join(format!("arbiter-walk-all-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = "[Game \"xiangqi\"]\n[Result \"*\"]\n\n1. h2e2 h9g7 *\n";
    let utf16 = |text: &str, big: bool| -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| {
                if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    };
    let bom = "\u{feff}";
    std::fs::write(dir.join("a-two-boms.txt"), format!("{bom}{bom}{game}")).unwrap();
    let long = format!("{{{}}}\n", "a long note. ".repeat(10_000));
    std::fs::write(dir.join("b-long-comment.log"), format!("{long}{game}")).unwrap();
    std::fs::write(
        dir.join("c-utf16.txt"),
        utf16(&format!("{bom}{game}"), false),
    )
    .unwrap();
    std::fs::write(
        dir.join("d-utf16be.txt"),
        utf16(&format!("{bom}{game}"), true),
    )
    .unwrap();
    std::fs::write(dir.join("e-utf16-no-bom.txt"), utf16(game, false)).unwrap();
    let utf32: Vec<u8> = format!("{bom}{game}")
        .chars()
        .flat_map(|c| (c as u32).to_le_bytes())
        .collect();
    std::fs::write(dir.join("f-utf32.log"), utf32).unwrap();
    // Longer than a head of white space or marks; `;` lines ended by CR alone; a Chinese tag
    // value early in UTF-16 without a mark.
    let spaced = format!("{}{game}", "\n".repeat(70_000));
    std::fs::write(dir.join("f2-long-space.txt"), spaced).unwrap();
    std::fs::write(
        dir.join("f3-many-boms.txt"),
        format!("{}{game}", bom.repeat(30_000)),
    )
    .unwrap();
    let cr = format!("; my game\r; club night\r{}", game.replace('\n', "\r"));
    std::fs::write(dir.join("f4-cr.txt"), cr).unwrap();
    let chinese = format!("[Event \"全国象棋锦标赛\"]\n{game}");
    std::fs::write(dir.join("f5-utf16-chinese.txt"), utf16(&chinese, false)).unwrap();
    // Chinese in opening comments: 上 is 0A 4E and 紅 05 7D in UTF-16, a line end and a `}`
    // byte by byte; white space past the head in UTF-16.
    let commented = format!("{bom}; 上海\n{{紅方}}\n{game}");
    std::fs::write(dir.join("f6-utf16-comments.txt"), utf16(&commented, true)).unwrap();
    let spaced16 = format!("{bom}{}{game}", " ".repeat(40_000));
    std::fs::write(dir.join("f7-utf16-long-space.txt"), utf16(&spaced16, false)).unwrap();
    // No log: a long opening comment and then prose; prose in UTF-16; a brace never closed.
    std::fs::write(
        dir.join("g-notes.txt"),
        format!("{long}notes [Game \"x\"]\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("h-notes16.txt"),
        utf16("notes, no record at all\n", false),
    )
    .unwrap();
    std::fs::write(dir.join("i-open.log"), format!("{{{}", "x".repeat(200_000))).unwrap();
    let run = bin::run(&["check", "--format", "json", dir.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let games = v["games"].as_array().unwrap();
    let names: Vec<&str> = games
        .iter()
        .map(|g| g["source"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "a-two-boms.txt",
            "b-long-comment.log",
            "c-utf16.txt",
            "d-utf16be.txt",
            "e-utf16-no-bom.txt",
            "f-utf32.log",
            "f2-long-space.txt",
            "f3-many-boms.txt",
            "f4-cr.txt",
            "f5-utf16-chinese.txt",
            "f6-utf16-comments.txt",
            "f7-utf16-long-space.txt"
        ],
        "{}",
        run.stdout
    );
    // The UTF-8 logs are judged; the wide ones say what they are and how to save them.
    for g in &games[..2] {
        assert_eq!(g["findings"].as_array().unwrap().len(), 0, "{g}");
        assert_eq!(g["plies"], 2, "{g}");
    }
    let said = |g: &serde_json::Value| g["findings"][0]["message"].as_str().unwrap().to_string();
    assert!(said(&games[2]).contains("UTF-16 text (little-endian, byte order mark FF FE)"));
    assert!(said(&games[3]).contains("UTF-16 text (big-endian, byte order mark FE FF)"));
    assert!(said(&games[4]).contains("UTF-16 text (little-endian, no byte order mark)"));
    assert!(said(&games[5]).contains("UTF-32 text (little-endian"));
    assert!(said(&games[4]).contains("save the file as UTF-8"));
    for g in &games[6..9] {
        assert_eq!(g["findings"].as_array().unwrap().len(), 0, "{g}");
        assert_eq!(g["plies"], 2, "{g}");
    }
    assert!(said(&games[9]).contains("UTF-16 text (little-endian, no byte order mark)"));
    assert_eq!(run.code, 2, "{}", run.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_html_report_names_a_variation_finding_by_its_line() {
    let page = std::env::temp_dir().join(format!("arbiter-dhtmlxq-{}.html", std::process::id()));
    let run = bin::run(&["report", PAGE, "-o", page.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    std::fs::remove_file(&page).unwrap();
    let item = html
        .find("ply 6 of line 1</button>")
        .expect("the variation's finding, named");
    // Its squares are not marked on the main line's board.
    let li = &html[html[..item].rfind("<li").unwrap()..item];
    assert!(li.contains(r#"data-own="" data-ev="""#), "{li}");
}

/// A DhtmlXQ variation that branches off after its line's last move replaces no move of it
/// (`( ... )` cannot say that): written as the line's continuation it made the main line 4
/// plies where the record's has 2 (another game: a recorded result judged against other moves),
/// so convert refuses the game (exit 2) with the reason at the variation, and check judges
/// the record as it is: its two variations, each an illegal move at ply 3.
#[test]
fn a_continuation_variation_is_refused_by_convert() {
    let dir = std::env::temp_dir().join(format!("arbiter-continuation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("continuation.txt");
    std::fs::write(
        &path,
        "[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\
         [DhtmlXQ_move_0_3_1]7747[/DhtmlXQ_move_0_3_1][DhtmlXQ_move_0_3_2]1747[/DhtmlXQ_move_0_3_2]\
         [DhtmlXQ_move_1_4_3]7062[/DhtmlXQ_move_1_4_3][/DhtmlXQ]",
    )
    .expect("write");
    let p = path.to_str().expect("UTF-8 path");
    let converted = bin::run(&["convert", p]);
    assert_eq!(converted.code, 2, "{}", converted.stdout);
    assert_eq!(converted.stdout, "");
    assert!(
        converted.stderr.contains(
            "a variation that starts after the last move of its line cannot be written in a native log"
        ),
        "{}",
        converted.stderr
    );
    let run = bin::run(&["check", "--format", "json", p]);
    let doc: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let game = &doc["games"][0];
    assert_eq!(game["plies"], 2);
    let mut errors: Vec<(String, u64)> = game["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["severity"] == "error")
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["ply"].as_u64().unwrap(),
            )
        })
        .collect();
    errors.sort();
    let want = vec![
        ("illegal-move".to_string(), 3),
        ("illegal-move".to_string(), 3),
    ];
    assert_eq!(errors, want);
    let _ = std::fs::remove_dir_all(&dir);
}
