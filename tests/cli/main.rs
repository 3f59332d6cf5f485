//! The binary as users run it: commands, output formats, exit codes, hostile input and boards.

mod cli;
mod content;
mod formats;
mod hostile;
mod show;
