//! `arbiter report` (docs/report.md) as a file: exit codes and messages, the verdict and
//! findings a page gives, its data block, the Content-Security-Policy and that log text that
//! looks like markup stays text. What the page does in a browser is `tests/browser/`.

use crate::bin;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `arbiter report ARGS -o DIR/page.html`: exit code, stderr with the page's path
/// written `PAGE`, and the page (empty when none was written).
fn report(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let page = dir.join("page.html");
    let run = bin::arbiter(["report"])
        .args(args)
        .arg("-o")
        .arg(&page)
        .run();
    let stderr = run.stderr.replace(&*page.to_string_lossy(), "PAGE");
    let html = std::fs::read_to_string(&page).unwrap_or_default();
    let _ = std::fs::remove_file(&page);
    (run.code, stderr, html)
}

/// The text between the first `start` after `from` and the next `end`.
fn between<'a>(s: &'a str, start: &str, end: &str) -> &'a str {
    let a = s.find(start).unwrap_or_else(|| panic!("no {start}")) + start.len();
    &s[a..a + s[a..].find(end).unwrap()]
}

#[test]
fn exit_codes_and_messages() {
    let dir = scratch("codes");
    let (code, err, html) = report(&dir, &["fixtures/show/xiangqi.arb"]);
    assert_eq!(code, 0, "{err}");
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    let (code2, err2, _) = report(&dir, &["fixtures/history/two-squares-fourth-move.arb"]);
    assert_eq!(code2, 1, "an error finding");
    let (code3, err3, html3) = report(&dir, &["fixtures/show/xiangqi.arb", "--as", "white"]);
    assert_eq!(code3, 2, "no White in Xiangqi");
    assert!(html3.is_empty(), "no page written");
    let (code4, err4, html4) = report(&dir, &["fixtures/show/no-such-file.arb"]);
    assert_eq!(code4, 2, "unreadable input");
    assert!(html4.contains("cannot read"), "the page says why");
    insta::assert_snapshot!("report_messages", [err, err2, err3, err4].join("---\n"));
}

/// The verdict, tags and findings of a Xiangqi perpetual chase, as the page writes them.
#[test]
fn verdict_and_findings_of_a_perpetual_chase() {
    let dir = scratch("chase");
    let (code, _, html) = report(
        &dir,
        &["fixtures/xiangqi/repetition-horse-chases-protected-chariot.arb"],
    );
    assert_eq!(code, 1);
    let verdict = between(&html, "<p class=\"verdict\">", "</p>");
    assert_eq!(
        verdict,
        "Black wins: Red chases perpetually (perpetual-chase) on ply 8 (4... c6d6) · 0-1 recorded: agrees with the moves · findings: 1 error, 0 warnings, 0 infos"
    );
    let findings = between(
        &html,
        "<ol class=\"findings\">",
        "</ol><div class=\"print-boards\">",
    );
    insta::assert_snapshot!(
        "report_chase_findings",
        findings.replace("</li>", "</li>\n")
    );
    // For print: the board after ply 8, the finding's ply, drawn by `show --svg`'s code.
    let print = between(&html, "<div class=\"print-boards\">", "</div>");
    assert_eq!(
        print
            .matches("<figure class=\"print-board\" data-ply=\"8\">")
            .count(),
        1
    );
    assert!(print.contains(
        "xiangqi · after ply 8 (Black c6-d6) · game over: Black wins: Red chases perpetually (perpetual-chase, 0-1)"
    ));
}

/// A long Jungle shuffle: the repetition fixture's four plies 2,500 times, a finding at
/// nearly every ply (every Tiger move from ply 9 on is a forbidden repetition). Print gets
/// the boards of the first 24 errors only, and says how many plies it leaves out: a board a
/// finding made a 60 KB log an 81 MB page.
#[test]
fn print_boards_are_capped_with_the_most_severe_first() {
    let dir = scratch("print-cap");
    let log = dir.join("shuffle.arb");
    let moves = vec!["e7-e8 c3-c2 e8-e7 c2-c3"; 2500].join(" ");
    std::fs::write(
        &log,
        format!("[Game \"jungle\"]\n[FEN \"7/7/4t2/7/7/7/2C4/7/7 b\"]\n\n{moves} *\n"),
    )
    .unwrap();
    let (code, _, html) = report(&dir, &[log.to_str().unwrap()]);
    assert_eq!(code, 1);
    let print = between(&html, "<div class=\"print-boards\">", "<figure");
    // Errors at plies 9, 11, ..., 9,999 (4,996 plies), infos at 8 to 11: 4,998 plies.
    assert_eq!(
        print,
        "<p class=\"print-note\">4974 more main-line plies with findings have no board here (at most 24 a game, the most severe findings first); the page steps to each.</p>"
    );
    let plies: Vec<&str> = html
        .split("<figure class=\"print-board\" data-ply=\"")
        .skip(1)
        .map(|f| &f[..f.find('"').unwrap()])
        .collect();
    let expected: Vec<String> = (0..24).map(|k| (9 + 2 * k).to_string()).collect();
    assert_eq!(plies, expected);
    assert!(html.len() < 6_000_000, "{} bytes", html.len());
}

/// A player's page gives the verdict line as it gives findings: the move without its
/// annotation and the stopping finding's code description. Blue's page once named Red's
/// unmoved Bomb on b1 ("the Bomb on b1 cannot move"); Black's Jieqi page printed White's
/// capture annotation `h2h9(N:r)`, which names a covered piece Black never saw.
#[test]
fn a_player_s_verdict_line_names_no_hidden_piece() {
    let dir = scratch("as-verdict");
    let log = dir.join("bomb.arb");
    std::fs::write(
        &log,
        "[Game \"barrage\"]\n[Result \"*\"]\n\nsetup blue\n 10 2X932S.BF.\n  9 ..........\n  8 ..........\n  7 ..........\nsetup red\n  4 ..........\n  3 ..........\n  2 ..........\n  1 FBS.239X.2\n\n1. j1-j2 c10-c9 2. b1-b2 *\n",
    )
    .unwrap();
    let stop = "cannot be played (illegal-move: A move the rules do not allow; the replay of that game stops there.); the rest is unchecked";
    let (code, _, html) = report(&dir, &[log.to_str().unwrap(), "--as", "blue"]);
    assert_eq!(code, 1);
    assert_eq!(
        between(&html, "<p class=\"verdict\">", "</p>"),
        format!("Judged up to ply 2 only: ply 3 (2. b1-b2) {stop} · * recorded: not compared (the replay stopped before the record&apos;s end) · findings: 1 error, 0 warnings, 0 infos")
    );
    let (_, _, arbiter_page) = report(&dir, &[log.to_str().unwrap()]);
    assert!(arbiter_page.contains("the Bomb on b1 cannot move"));
    let jieqi = "fixtures/jieqi/capture-beyond-pool.arb";
    let (_, _, html) = report(&dir, &[jieqi, "--as", "black"]);
    let verdict = between(&html, "<p class=\"verdict\">", "</p>");
    assert!(verdict.contains(&format!("(3. h2h9) {stop}")), "{verdict}");
    assert!(!html.contains("N:r"));
}

/// The data block of the 4-ply Xiangqi fixture: moves, captions and the views, the
/// players' views given as the arbiter's (`same`), since Xiangqi hides nothing.
#[test]
fn the_data_block_of_a_game() {
    let dir = scratch("data");
    let (_, _, html) = report(&dir, &["fixtures/show/xiangqi.arb"]);
    let data = between(
        &html,
        "<script type=\"application/json\" class=\"data\">",
        "</script>",
    );
    let v: serde_json::Value = serde_json::from_str(data).unwrap();
    insta::assert_snapshot!(
        "report_xiangqi_data",
        serde_json::to_string_pretty(&v).unwrap()
    );
}

/// The policy allows exactly the page's one script and one style, by hash, and nothing else.
#[test]
fn the_content_security_policy_names_the_page_s_own_script_and_style() {
    use base64::Engine;
    use sha2::Digest;
    let dir = scratch("csp");
    let (_, _, html) = report(&dir, &["fixtures/show/jieqi.arb"]);
    let csp = between(
        &html,
        "http-equiv=\"Content-Security-Policy\" content=\"",
        "\"",
    );
    let hash = |s: &str| {
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(s.as_bytes()))
    };
    let script = &html[html.rfind("<script>").unwrap() + 8..html.rfind("</script>").unwrap()];
    let style = between(&html, "<style>", "</style>");
    assert_eq!(
        csp,
        format!(
            "default-src 'none'; script-src 'sha256-{}'; style-src 'sha256-{}'; img-src 'none'; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'",
            hash(script),
            hash(style)
        )
    );
    assert_eq!(
        html.matches("<script").count(),
        2,
        "the script and one data block"
    );
    assert!(
        !html.contains("http://")
            || html.matches("http://").count()
                == html.matches("http://www.w3.org/2000/svg").count(),
        "no URL but the SVG namespace"
    );
    assert!(!html.contains("https://"));
}

/// Tags, comments and moves that look like markup are escaped in the page and in its data.
#[test]
fn markup_in_tags_and_comments_is_escaped() {
    let dir = scratch("inject");
    let log = "[Game \"xiangqi\"]\n[Event \"<script>alert(1)</script>\"]\n[Site \"\\\"><img src=x onerror=alert(2)>\"]\n[Result \"*\"]\n\n{</script><script>alert(3)</script>} 1. h2e2 {\"><img src=x onerror=alert(4)>} h9g7 *\n";
    let file = dir.join("hostile.pgn");
    std::fs::write(&file, log).unwrap();
    let (code, err, html) = report(&dir, &[&file.to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    for bad in ["<script>alert", "<img", "</script><script>"] {
        assert!(!html.contains(bad), "{bad} in the page");
    }
    assert!(html.contains("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"));
    assert!(html.contains("<td>&quot;&gt;&lt;img src=x onerror=alert(2)&gt;</td>"));
    let data = between(&html, "class=\"data\">", "</script>");
    assert!(
        data.contains("\\u003c/script\\u003e\\u003cscript\\u003ealert(3)"),
        "{data}"
    );
    let v: serde_json::Value = serde_json::from_str(data).unwrap();
    assert_eq!(
        v["comments"],
        serde_json::json!([
            [0, "</script><script>alert(3)</script>"],
            [1, "\"><img src=x onerror=alert(4)>"]
        ])
    );
}
