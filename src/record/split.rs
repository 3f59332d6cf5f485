//! Cuts a source text into games, in one linear pass, before any grammar runs.
//!
//! A new game starts at a line whose first non-blank character is `[` (a tag line) when
//! something other than tags (setup rows or movetext) has been seen since the previous tag.
//! Brace comments that span lines are skipped, so a `[` inside a comment never starts a game.
//! This is what lets a 100,000-game archive be parsed one game at a time, and what keeps one
//! broken game from hiding the others.

use super::Span;

/// Returns the byte spans of the games in `text`, in order. Leading blank lines and comments
/// belong to the first game. A text with no non-blank content yields no game.
pub fn split_games(text: &str) -> Vec<Span> {
    let mut games = Vec::new();
    let mut start: Option<usize> = None;
    let mut seen_body = false; // movetext or setup seen since the last tag line
    let mut in_comment = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        let trimmed = line.trim_start_matches([' ', '\t', '\r', '\u{feff}']);
        if in_comment {
            if let Some(close) = line.find('}') {
                in_comment = false;
                // what follows the comment on this line is body text
                if !line[close + 1..].trim().is_empty() {
                    seen_body = true;
                }
            }
            continue;
        }
        if trimmed.trim_end().is_empty() {
            continue;
        }
        let is_tag = trimmed.starts_with('[');
        if is_tag {
            if seen_body {
                if let Some(s) = start {
                    games.push(Span::new(s, line_start));
                }
                start = Some(line_start);
                seen_body = false;
            } else if start.is_none() {
                start = Some(line_start);
            }
        } else {
            if start.is_none() {
                start = Some(line_start);
            }
            if !trimmed.starts_with(';') && !trimmed.starts_with('{') {
                seen_body = true;
            }
        }
        // Track an unclosed brace comment (outside tag values) so its lines are skipped.
        if !is_tag {
            let mut depth_open = false;
            for c in trimmed.chars() {
                match c {
                    '{' if !depth_open => depth_open = true,
                    '}' if depth_open => depth_open = false,
                    ';' if !depth_open => break,
                    _ => {}
                }
            }
            if depth_open {
                in_comment = true;
                // text before the comment counts as body
                if let Some(open) = trimmed.find('{') {
                    if !trimmed[..open].trim().is_empty() {
                        seen_body = true;
                    }
                }
            }
        }
    }
    if let Some(s) = start {
        games.push(Span::new(s, text.len()));
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Vec<&str> {
        split_games(text)
            .into_iter()
            .map(|s| &text[s.start..s.end])
            .collect()
    }

    #[test]
    fn splits_at_tags_after_movetext() {
        let t = "[A \"1\"]\n[B \"2\"]\n\n1. a2a3\n\n[A \"3\"]\n1. b2b3 *\n";
        assert_eq!(
            pieces(t),
            vec![
                "[A \"1\"]\n[B \"2\"]\n\n1. a2a3\n\n",
                "[A \"3\"]\n1. b2b3 *\n"
            ]
        );
    }

    #[test]
    fn tag_inside_multiline_comment_does_not_split() {
        let t = "[A \"1\"]\n1. a2a3 {note\n[not a tag]\n} b2b3\n[A \"2\"]\n1. c2c3\n";
        assert_eq!(pieces(t).len(), 2);
        assert!(pieces(t)[0].contains("[not a tag]"));
    }

    #[test]
    fn blank_text_has_no_game() {
        assert!(split_games("").is_empty());
        assert!(split_games("\n\n  \n").is_empty());
    }

    #[test]
    fn tags_only_is_one_game() {
        assert_eq!(pieces("[A \"1\"]\n[B \"2\"]\n").len(), 1);
    }
}
