//! The one way the tests run the `arbiter` binary: [`arbiter`] builds a run (arguments, stdin,
//! environment, directory, where standard output goes), [`Arbiter::run`] gives its [`Run`].
//! It runs in the crate root with `NO_COLOR` set unless told otherwise.
#![allow(dead_code)]

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The binary Cargo built for these tests.
const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

/// The crate root, where the fixture paths of the tests are relative to.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What one run of the binary gave.
#[derive(Debug)]
pub struct Run {
    /// The exit code.
    pub code: i32,
    /// Standard output, checked to be UTF-8.
    pub stdout: String,
    /// Standard error, checked to be UTF-8.
    pub stderr: String,
}

impl Run {
    /// The exit code, stdout and stderr as one text, the form of the snapshots.
    pub fn transcript(&self) -> String {
        format!(
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    /// (exit code, stdout, stderr).
    pub fn parts(self) -> (i32, String, String) {
        (self.code, self.stdout, self.stderr)
    }

    /// Waits for a child of [`Arbiter::spawn`] and reads what it gave.
    pub fn of(child: Child) -> Run {
        let out = child.wait_with_output().expect("arbiter finishes");
        Run::from_output(out, &[])
    }

    fn from_output(out: Output, args: &[OsString]) -> Run {
        let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
        let code = out.status.code().unwrap_or_else(|| {
            panic!(
                "arbiter {args:?} ended without a code ({}): {stderr}",
                out.status
            )
        });
        Run {
            code,
            stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
            stderr,
        }
    }
}

/// How the binary is started.
enum Via {
    /// Itself.
    Direct,
    /// `sh -c 'exec arbiter ARGS REDIRECT'`.
    Shell(&'static str),
    /// `script`'s pseudo-terminal (util-linux): stdout is a terminal.
    Terminal,
}

/// One run of the binary being built.
pub struct Arbiter {
    args: Vec<OsString>,
    stdin: Option<(Vec<u8>, usize)>,
    env: Vec<(OsString, Option<OsString>)>,
    dir: PathBuf,
    stdout: Option<Stdio>,
    stderr: Option<Stdio>,
    via: Via,
}

/// `arbiter ARGS`, to be run with [`Arbiter::run`].
pub fn arbiter<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Arbiter {
    Arbiter {
        args: args.into_iter().map(|a| a.as_ref().to_owned()).collect(),
        stdin: None,
        env: Vec::new(),
        dir: root().to_path_buf(),
        stdout: None,
        stderr: None,
        via: Via::Direct,
    }
}

/// Runs `arbiter ARGS` in the crate root, colours off, stdin empty.
pub fn run(args: &[&str]) -> Run {
    arbiter(args).run()
}

/// The command line `$ arbiter ARGS`, then the [`Run::transcript`] of running it.
pub fn session(args: &[&str]) -> String {
    format!("$ arbiter {}\n{}", args.join(" "), run(args).transcript())
}

impl Arbiter {
    /// One more argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Arbiter {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    /// More arguments.
    pub fn args<S: AsRef<OsStr>>(mut self, args: impl IntoIterator<Item = S>) -> Arbiter {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// Standard input: these bytes, then end of file (without it, stdin is `/dev/null`).
    pub fn stdin(self, bytes: impl Into<Vec<u8>>) -> Arbiter {
        self.stdin_in_pieces(bytes, usize::MAX)
    }

    /// Standard input written and flushed `piece` bytes at a time.
    pub fn stdin_in_pieces(mut self, bytes: impl Into<Vec<u8>>, piece: usize) -> Arbiter {
        self.stdin = Some((bytes.into(), piece));
        self
    }

    /// Sets an environment variable.
    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Arbiter {
        self.env.push((key.into(), Some(value.as_ref().to_owned())));
        self
    }

    /// Removes an environment variable (`NO_COLOR` too).
    pub fn env_remove(mut self, key: &str) -> Arbiter {
        self.env.push((key.into(), None));
        self
    }

    /// Runs in `dir` instead of the crate root.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Arbiter {
        self.dir = dir.as_ref().to_path_buf();
        self
    }

    /// Sends standard output there instead of reading it.
    pub fn stdout(mut self, to: impl Into<Stdio>) -> Arbiter {
        self.stdout = Some(to.into());
        self
    }

    /// Sends standard error there instead of reading it.
    pub fn stderr(mut self, to: impl Into<Stdio>) -> Arbiter {
        self.stderr = Some(to.into());
        self
    }

    /// Runs through `sh`, with `redirect` (such as `>&-`) after the arguments.
    pub fn in_shell(mut self, redirect: &'static str) -> Arbiter {
        self.via = Via::Shell(redirect);
        self
    }

    /// Runs on a pseudo-terminal (`script -qec`, util-linux): stdout is a terminal.
    pub fn on_terminal(mut self) -> Arbiter {
        self.via = Via::Terminal;
        self
    }

    fn command(&mut self) -> Command {
        let mut cmd = match self.via {
            Via::Direct => {
                let mut c = Command::new(BIN);
                c.args(&self.args);
                c
            }
            Via::Shell(redirect) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("exec \"$0\" \"$@\" {redirect}"))
                    .arg(BIN)
                    .args(&self.args);
                c
            }
            Via::Terminal => {
                let words: Vec<String> = std::iter::once(OsStr::new(BIN))
                    .chain(self.args.iter().map(OsString::as_os_str))
                    .map(|w| format!("'{}'", w.to_string_lossy().replace('\'', r"'\''")))
                    .collect();
                let mut c = Command::new("script");
                c.arg("-qec").arg(words.join(" ")).arg("/dev/null");
                c
            }
        };
        cmd.current_dir(&self.dir).env("NO_COLOR", "1");
        for (key, value) in &self.env {
            match value {
                Some(v) => cmd.env(key, v),
                None => cmd.env_remove(key),
            };
        }
        cmd.stdin(if self.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(self.stdout.take().unwrap_or_else(Stdio::piped))
        .stderr(self.stderr.take().unwrap_or_else(Stdio::piped));
        cmd
    }

    /// Starts the binary and writes its stdin (standard output and error piped unless sent
    /// elsewhere); a test that reads as it runs takes the child's pipes, then [`Run::of`].
    pub fn spawn(mut self) -> Child {
        let mut child = self.command().spawn().expect("the arbiter binary runs");
        if let Some((bytes, piece)) = self.stdin.take() {
            let mut pipe = child.stdin.take().expect("stdin is piped");
            for part in bytes.chunks(piece.max(1)) {
                pipe.write_all(part).expect("stdin accepts the input");
                pipe.flush().expect("stdin flushed");
            }
        }
        child
    }

    /// Runs the binary to its end.
    pub fn run(self) -> Run {
        let args = self.args.clone();
        let out = self.spawn().wait_with_output().expect("arbiter finishes");
        Run::from_output(out, &args)
    }
}
