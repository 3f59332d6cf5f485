//! At most [`MAX_LISTED`] `record-defect` warnings a game are listed one by one; the rest are
//! counted in one more. A log of a million repeated tags once held a million findings: 3.6 GB
//! of memory for an 8 MB log in `--format gitlab`, and a report no one reads to the end.

use super::Span;
use crate::finding::{Code, Finding};
use crate::rulebook::Rule;

/// Record defects a game lists one by one.
pub const MAX_LISTED: usize = 100;

/// Record defects a reader found but did not list: how many, and where the first and the
/// last of them are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unlisted {
    /// How many.
    pub count: usize,
    /// The first one's span.
    pub first: Span,
    /// The last one's span.
    pub last: Span,
}

impl Unlisted {
    /// One more, at `span` (after the others).
    pub fn add(this: &mut Option<Unlisted>, span: Span) {
        match this {
            Some(u) => {
                u.count += 1;
                u.last = span;
            }
            None => {
                *this = Some(Unlisted {
                    count: 1,
                    first: span,
                    last: span,
                })
            }
        }
    }
}

/// Keeps the first [`MAX_LISTED`] `record-defect` findings of `findings` in source order
/// (every other finding keeps its place) and adds one that counts the rest and `unlisted`
/// (those a reader never made), at the first of them, labelled at the last. A list that
/// already holds that count is left as it is. O(n log n) in the record defects.
pub fn fold(findings: &mut Vec<Finding>, unlisted: Option<Unlisted>) {
    if findings.iter().any(|f| f.rule == Rule::ListedDefects) {
        return;
    }
    let mut defects: Vec<(usize, usize)> = findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.code == Code::RecordDefect)
        .map(|(i, f)| (f.span.start, i))
        .collect();
    if unlisted.is_none() && defects.len() <= MAX_LISTED {
        return;
    }
    defects.sort_unstable();
    let mut drop = vec![false; findings.len()];
    let mut spans: Vec<Span> = defects[defects.len().min(MAX_LISTED)..]
        .iter()
        .map(|&(_, i)| {
            drop[i] = true;
            findings[i].span
        })
        .collect();
    // The ply of the first one left out, so that the count sorts after the listed ones of
    // a reader whose defects name their plies (UCC): with no ply it sorted before them.
    let first_ply = defects
        .get(MAX_LISTED)
        .map(|&(_, i)| (findings[i].span, findings[i].ply));
    spans.extend(unlisted.iter().flat_map(|u| [u.first, u.last]));
    let count = defects.len().saturating_sub(MAX_LISTED) + unlisted.map_or(0, |u| u.count);
    let mut i = 0;
    findings.retain(|_| {
        i += 1;
        !drop[i - 1]
    });
    let (Some(first), Some(last)) = (
        spans.iter().min_by_key(|s| s.start),
        spans.iter().max_by_key(|s| s.start),
    ) else {
        return;
    };
    let mut summary = Finding::new(
        Code::RecordDefect,
        *first,
        format!(
            "{count} more record {} in this game (only the first {MAX_LISTED} are listed)",
            if count == 1 { "defect" } else { "defects" }
        ),
        Rule::ListedDefects,
    )
    .label("the first of them")
    .with_label(*last, "the last of them")
    .help("correct the defects listed and check the record again to see the rest");
    summary.ply = first_ply
        .filter(|(span, _)| span == first)
        .and_then(|(_, ply)| ply);
    findings.push(summary);
}
