//! `arbiter report` pages opened in a real browser (issue 25): Debian's `chromium`, driven
//! through the DevTools protocol by puppeteer-core (`tests/browser/drive.mjs`, the npm package
//! from `scripts/package.json`; never a downloaded browser).
//!
//! For a game of every ruleset the page's board is compared, square by square, with the
//! terminal board `arbiter show` draws for the same ply and view, after stepping with the
//! buttons, the arrow keys and the slider; its caption with `show`'s; the marked move; the
//! squares a chosen finding highlights; the views. Every page must request nothing but its
//! own file and log no error; log text that looks like markup must stay text.
//!
//! Without chromium, node or `scripts/node_modules/puppeteer-core` the tests print `SKIPPED`
//! and pass, unless `ARBITER_BROWSER_REQUIRED=1` (the CI hook `scripts/ci/50-browser`).

#[path = "../support/bin.rs"]
mod bin;
mod pages;

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What the driver needs: the browser, node and the node modules.
pub struct Browser {
    chromium: PathBuf,
    modules: PathBuf,
}

/// The browser, or `None` after printing `SKIPPED: ...` (a failure when the CI hook asks).
pub fn browser(test: &str) -> Option<Browser> {
    let chromium = std::env::var_os("ARBITER_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
                .iter()
                .map(PathBuf::from)
                .find(|p| p.exists())
        });
    let modules = std::env::var_os("ARBITER_NODE_MODULES")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("scripts/node_modules"));
    let node = Command::new("node").arg("--version").output().is_ok();
    let why = match (&chromium, node, modules.join("puppeteer-core").is_dir()) {
        (None, _, _) => "no chromium (apt-get install chromium)",
        (_, false, _) => "no node",
        (_, _, false) => "no puppeteer-core (npm ci --prefix scripts)",
        (Some(c), true, true) => {
            return Some(Browser {
                chromium: c.clone(),
                modules,
            })
        }
    };
    if std::env::var("ARBITER_BROWSER_REQUIRED").is_ok_and(|v| v == "1") {
        panic!("{test}: the browser tests must run but cannot: {why}");
    }
    println!("SKIPPED: {test}: {why}");
    None
}

impl Browser {
    /// Opens each page of `pages` (`{"file", "steps"}`) and returns what each showed.
    pub fn run(&self, pages: Vec<Value>) -> Vec<Value> {
        let plan = json!({"chromium": self.chromium, "pages": pages});
        let mut child = Command::new("node")
            .arg(root().join("tests/browser/drive.mjs"))
            .env("ARBITER_NODE_MODULES", &self.modules)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("node runs");
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(plan.to_string().as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "driver failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).expect("driver prints JSON");
        v["pages"].as_array().unwrap().clone()
    }
}

/// A fresh directory for one test's pages.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-browser-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
