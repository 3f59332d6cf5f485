//! The `arbiter` binary: the command line is the library's [`arbiter::cli`] (arguments in,
//! exit code out); all judgement lives in the library.

use std::process::ExitCode;

/// Runs the command line on a thread with the check workers' stack
/// ([`arbiter::run::WORKER_STACK`]): `show`, `claim` and `convert` read their game on it, and
/// read it as `check` does. Where no such thread can be started, on this one.
fn main() -> ExitCode {
    let spawned = std::thread::Builder::new()
        .name("arbiter".into())
        .stack_size(arbiter::run::WORKER_STACK)
        .spawn(arbiter::cli::main);
    match spawned {
        Ok(thread) => thread.join().unwrap_or(ExitCode::from(101)),
        Err(_) => arbiter::cli::main(),
    }
}
