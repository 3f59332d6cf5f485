//! The `arbiter` binary: the command line is the library's [`arbiter::cli`] (arguments in,
//! exit code out); all judgement lives in the library.

fn main() -> std::process::ExitCode {
    arbiter::cli::main()
}
