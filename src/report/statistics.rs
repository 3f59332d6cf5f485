//! `arbiter check --statistics`: how many findings of each code and in each file, most first,
//! in place of the human report (as ruff's `--statistics` prints them).

use super::escape;
use crate::finding::Code;
use crate::pipeline::GameReport;
use std::collections::{BTreeMap, HashMap};

/// Files listed by name; the findings of the others are counted on one line.
pub const MAX_FILES: usize = 20;

/// Finding counts by code and by source.
#[derive(Debug, Clone, Default)]
pub struct Statistics {
    by_code: BTreeMap<Code, usize>,
    by_file: HashMap<String, usize>,
}

impl Statistics {
    /// Counts the findings of one game.
    pub fn add(&mut self, g: &GameReport) {
        for f in &g.findings {
            *self.by_code.entry(f.code).or_default() += 1;
        }
        if !g.findings.is_empty() {
            *self.by_file.entry(g.source.clone()).or_default() += g.findings.len();
        }
    }

    /// The table: one line a code (count, severity, code, description), then one line a file
    /// (count, name) for the [`MAX_FILES`] files with most findings and one for the rest, each
    /// part most first; `no findings` when there are none.
    pub fn render(&self) -> String {
        if self.by_code.is_empty() {
            return "no findings\n".into();
        }
        let mut codes: Vec<(Code, usize)> = self.by_code.iter().map(|(c, n)| (*c, *n)).collect();
        codes.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
        let mut files: Vec<(&str, usize)> =
            self.by_file.iter().map(|(f, n)| (f.as_str(), *n)).collect();
        files.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let rest: usize = files.iter().skip(MAX_FILES).map(|f| f.1).sum();
        let most = codes.iter().map(|c| c.1).chain(files.iter().map(|f| f.1));
        let width = most.chain([rest]).max().unwrap_or(0).to_string().len();
        let code_width = codes.iter().map(|c| c.0.as_str().len()).max().unwrap_or(0);
        let mut out = String::from("findings by code:\n");
        for (c, n) in codes {
            out.push_str(&format!(
                "  {n:>width$}  {:<7}  {:<code_width$}  {}\n",
                c.severity().as_str(),
                c.as_str(),
                c.description()
            ));
        }
        out.push_str("findings by file:\n");
        for (f, n) in files.iter().take(MAX_FILES) {
            out.push_str(&format!("  {n:>width$}  {}\n", escape::visible_line(f)));
        }
        if files.len() > MAX_FILES {
            let more = files.len() - MAX_FILES;
            out.push_str(&format!(
                "  {rest:>width$}  in {more} more file{}\n",
                if more == 1 { "" } else { "s" }
            ));
        }
        out
    }
}
