//! Reading inputs as a stream of [`Chunk`]s: one native game at a time (so memory is bounded by
//! the largest game, not the archive), or a whole Gravon XML file.
//!
//! Paths are expanded in a stable order ([`expand`]); anything that cannot be read becomes an
//! [`Input::Unreadable`] that is reported, never skipped. Bytes that are not UTF-8 are replaced
//! by `?` bytes of the same length, so every offset still points into the user's file, and each
//! such run gets a `parse-error` finding.

use crate::finding::{Code, Finding};
use crate::record::split::{self, Splitter};
use crate::rulebook::Rule;
use crate::types::Span;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::sync::Arc;

/// One thing to read.
#[derive(Debug, Clone)]
pub enum Input {
    /// A file.
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// A path that could not be read: its name and why.
    Unreadable {
        /// The path as found.
        name: String,
        /// The reason (I/O error, symlink loop, ...).
        why: String,
    },
}

impl Input {
    /// The name used in reports: the path with bytes that are not UTF-8 written `\xNN`
    /// ([`path_name`]).
    pub fn name(&self) -> String {
        match self {
            Input::File(p) => path_name(p),
            Input::Stdin => "<stdin>".to_string(),
            Input::Unreadable { name, .. } => name.clone(),
        }
    }
}

/// A path as reports name it: its UTF-8 as it is, every byte that is not UTF-8 as `\xNN` and
/// a backslash as `\\`, so two different file names never print alike (the lossy
/// `Path::display` makes both `�`, and a name holding the text `\xFF` would print like one
/// holding the byte). [`name_bytes`] reads it back.
pub fn path_name(p: &std::path::Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut out = String::new();
        for chunk in p.as_os_str().as_bytes().utf8_chunks() {
            out.push_str(&chunk.valid().replace('\\', "\\\\"));
            for b in chunk.invalid() {
                out.push_str(&format!("\\x{b:02X}"));
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        p.display().to_string()
    }
}

/// The bytes of the path a report names `name` ([`path_name`] read back; elsewhere than Unix,
/// its UTF-8).
pub fn name_bytes(name: &str) -> Vec<u8> {
    if !cfg!(unix) {
        return name.as_bytes().to_vec();
    }
    let b = name.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 2..i + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[i], b.get(i + 1), hex) {
            (b'\\', Some(b'\\'), _) => (out.push(b'\\'), i += 2),
            (b'\\', Some(b'x'), Some(v)) => (out.push(v), i += 4),
            (c, _, _) => (out.push(c), i += 1),
        };
    }
    out
}

/// The extensions a directory walk picks up.
pub const LOG_EXTENSIONS: [&str; 4] = ["arb", "pgn", "xml", "xqf"];

/// The extensions a directory walk picks up when the file holds a DhtmlXQ record (web pages
/// and text files that do not are passed over).
pub const DHTMLXQ_EXTENSIONS: [&str; 3] = ["txt", "html", "htm"];

/// The extensions a directory walk picks up when the file begins like a native log or PGN
/// (after a BOM, white space and comments, a tag line: `[Name "`); a `.txt` file is also
/// taken when it holds a DhtmlXQ record.
pub const TEXT_LOG_EXTENSIONS: [&str; 2] = ["txt", "log"];

/// How much of a `.txt` or `.log` file a walk reads to know whether it begins with a tag.
const TAG_SNIFF: usize = 64 << 10;

/// How much of any other file a walk reads to know whether an importer reads it.
const IMPORT_SNIFF: usize = 1024;

/// Where [`begins_with_tag`] stood when its bytes ran out before they told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Undecided {
    /// Inside an opening comment, which ends at either byte of the pair (`}` for `{...}`; LF
    /// or CR for `;`).
    Comment([u8; 2]),
    /// In white space, or in what may be a tag line's start: it goes on with the last `keep`
    /// bytes (a byte order mark's first bytes, the `[` and what follows it).
    Start { keep: usize },
}

/// Whether `head` (a file's first bytes) begins like a native log or PGN: after byte order
/// marks, white space and comments (`;` to the line's end, `{...}`), a tag line's start: `[`,
/// a name (a letter, then letters, digits or `_`), white space and `"`. `Err` when `head`
/// ends before that is told: the rest of the file decides ([`begins_with_tag_in`]).
fn begins_with_tag(head: &[u8]) -> Result<bool, Undecided> {
    let bom = crate::record::encoding::BOM;
    let mut rest = head;
    loop {
        // The grammar's white space: ASCII's, and a byte order mark anywhere.
        loop {
            let ws = rest.iter().take_while(|c| c.is_ascii_whitespace()).count();
            rest = &rest[ws..];
            match rest.strip_prefix(bom) {
                Some(r) => rest = r,
                None if ws == 0 => break,
                None => {}
            }
        }
        if rest.len() < bom.len() && bom.starts_with(rest) {
            return Err(Undecided::Start { keep: rest.len() });
        }
        let close = match rest[0] {
            b';' => [b'\n', b'\r'],
            b'{' => [b'}', b'}'],
            b'[' => break,
            _ => return Ok(false),
        };
        match memchr::memchr2(close[0], close[1], rest) {
            Some(i) => rest = &rest[i + 1..],
            None => return Err(Undecided::Comment(close)),
        }
    }
    let tag = rest;
    let rest = &rest[1..];
    let name = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    let space = rest[name..]
        .iter()
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .count();
    if name + space >= rest.len() {
        return Err(Undecided::Start { keep: tag.len() });
    }
    Ok(
        rest.first().is_some_and(u8::is_ascii_alphabetic)
            && space > 0
            && rest[name + space] == b'"',
    )
}

/// [`begins_with_tag`] of the file `f` whose first bytes are `head` (all of them that
/// [`TAG_SNIFF`] allowed): an opening comment or white space longer than that is read on, a
/// block at a time (memory stays a block or two), and what follows decides.
fn begins_with_tag_in(head: Vec<u8>, mut f: impl Read) -> bool {
    // UTF-16 and UTF-32 are read as their ASCII characters, block after block like UTF-8.
    let wide = wide_units(&head);
    let mut text = match wide {
        Some(w) => w.ascii(&head[w.bom..]),
        None => head,
    };
    let mut read_block = |text: &mut Vec<u8>| match wide {
        None => read_block(&mut f, text),
        Some(w) => {
            let mut raw = Vec::new();
            let n = read_block(&mut f, &mut raw)?;
            text.extend(w.ascii(&raw));
            Ok(n)
        }
    };
    loop {
        match begins_with_tag(&text) {
            Ok(yes) => return yes,
            Err(Undecided::Start { keep }) if keep <= TAG_SNIFF => {
                text.drain(..text.len() - keep);
            }
            Err(Undecided::Start { .. }) => return false,
            Err(Undecided::Comment(close)) => {
                // Past the comment's end (kept: what follows it), or the end of the file.
                loop {
                    text.clear();
                    if !matches!(read_block(&mut text), Ok(1..)) {
                        return false;
                    }
                    if let Some(i) = memchr::memchr2(close[0], close[1], &text) {
                        text.drain(..=i);
                        break;
                    }
                }
                continue;
            }
        }
        if !matches!(read_block(&mut text), Ok(1..)) {
            return false;
        }
    }
}

/// Reads up to [`TAG_SNIFF`] more bytes of `f` onto `text`: how many.
fn read_block(f: &mut impl Read, text: &mut Vec<u8>) -> std::io::Result<usize> {
    f.take(TAG_SNIFF as u64).read_to_end(text)
}

/// How a UTF-16 or UTF-32 source's text is written ([`wide_text`]), for a walk to know a
/// log saved as "Unicode" by its tags and take it, so that it is reported (with how to save
/// it), not passed over.
#[derive(Debug, Clone, Copy)]
struct WideUnits {
    /// Bytes a code unit (2 or 4).
    size: usize,
    /// Big-endian.
    big: bool,
    /// The byte order mark's length (0: none).
    bom: usize,
}

impl WideUnits {
    /// The text of `bytes` (whole code units) one byte a character: ASCII as itself, a byte
    /// order mark as a space (white space to the grammar), anything else as a byte that is
    /// neither (a Chinese character holds no `}` nor line end then).
    fn ascii(self, bytes: &[u8]) -> Vec<u8> {
        let unit = |u: &[u8]| {
            let v = u.iter().fold(0u32, |v, &b| v << 8 | u32::from(b));
            match self.big {
                true => v,
                false if self.size == 2 => v.swap_bytes() >> 16,
                false => v.swap_bytes(),
            }
        };
        let char_of = |v: u32| match v {
            0..=0x7F => v as u8,
            0xFEFF => b' ',
            _ => 0x80,
        };
        bytes
            .chunks_exact(self.size)
            .map(|u| char_of(unit(u)))
            .collect()
    }
}

/// The [`WideUnits`] of a source whose first bytes are `head`, when [`wide_text`] says it is
/// UTF-16 or UTF-32.
fn wide_units(head: &[u8]) -> Option<WideUnits> {
    wide_text(head)?;
    let (size, big, bom) = match head {
        [0xFF, 0xFE, 0, 0, ..] => (4, false, 4),
        [0, 0, 0xFE, 0xFF, ..] => (4, true, 4),
        [0xFF, 0xFE, ..] => (2, false, 2),
        [0xFE, 0xFF, ..] => (2, true, 2),
        _ => (2, !ascii_in_utf16(head, 0), 0),
    };
    Some(WideUnits { size, big, bom })
}

/// How much of a `.txt` or `.html` file a walk reads to know whether it holds a DhtmlXQ
/// record.
const DHTMLXQ_SNIFF: u64 = 4 << 20;

/// Whether a directory walk takes the file at `p` (its extension `ext`, in lower case; a
/// `regular` file or not): one of the [`LOG_EXTENSIONS`]; one of the [`TEXT_LOG_EXTENSIONS`]
/// that begins with a tag; one of the [`DHTMLXQ_EXTENSIONS`] that holds a DhtmlXQ record in
/// its first [`DHTMLXQ_SNIFF`] bytes; any file whose first bytes an importer reads (XQF
/// files and Gravon XML under any name, the layhenghok Jungle saves, the UCC 2012 judge's
/// logs). The file's head is read once. A text
/// or web file that is not a regular file, or cannot be read, is taken, so that the reason is
/// reported.
fn taken(p: &std::path::Path, ext: Option<&str>, regular: bool) -> bool {
    let has = |list: &[&str]| ext.is_some_and(|x| list.contains(&x));
    if has(&LOG_EXTENSIONS) {
        return true;
    }
    let (text_log, dhtmlxq) = (has(&TEXT_LOG_EXTENSIONS), has(&DHTMLXQ_EXTENSIONS));
    if !regular {
        return text_log || dhtmlxq;
    }
    let limit = match (dhtmlxq, text_log) {
        (true, _) => DHTMLXQ_SNIFF,
        (false, true) => TAG_SNIFF as u64,
        (false, false) => IMPORT_SNIFF as u64,
    };
    let mut head = Vec::new();
    let Ok(mut file) = std::fs::File::open(p) else {
        return text_log || dhtmlxq;
    };
    if (&mut file).take(limit).read_to_end(&mut head).is_err() {
        return text_log || dhtmlxq;
    }
    let first = |n: usize| &head[..head.len().min(n)];
    let known = match known_by_content(first(IMPORT_SNIFF)) {
        // An XQF file is at least its 1 KB header.
        Some(KnownFormat::Xqf) => head.len() >= IMPORT_SNIFF,
        known => known.is_some(),
    };
    if known || (dhtmlxq && crate::record::dhtmlxq::looks_like_dhtmlxq(&head)) {
        return true;
    }
    // A DhtmlXQ sniff read more than a head: what it read past one comes first after it.
    let more = head.split_off(TAG_SNIFF.min(head.len()));
    text_log && begins_with_tag_in(head, std::io::Cursor::new(more).chain(file))
}

/// Expands the command line's paths, in a stable order: files as given, directories walked
/// (following symlinks, sorted by name; only files with the [`LOG_EXTENSIONS`], and those of
/// [`TEXT_LOG_EXTENSIONS`] and [`DHTMLXQ_EXTENSIONS`] that hold a record), `-` for
/// stdin. A dangling symlink, a symlink loop or a permission error becomes
/// [`Input::Unreadable`], and so does anything a walk finds that is not a regular file, a
/// device named directly, and a directory in which nothing could be read.
pub fn expand(paths: &[PathBuf]) -> Vec<Input> {
    let mut out = Vec::new();
    for p in paths {
        let before = out.len();
        if p.is_dir() && p.as_os_str() != "-" {
            walk(p, &mut out);
            if out.len() == before {
                out.push(Input::Unreadable {
                    name: path_name(p),
                    why: format!(
                        "a directory with no game record in it (looked for files ending .{}, native logs that begin with a tag in .{}, and DhtmlXQ records in .{})",
                        LOG_EXTENSIONS.join(", ."),
                        TEXT_LOG_EXTENSIONS.join(", ."),
                        DHTMLXQ_EXTENSIONS.join(", .")
                    ),
                });
            }
            continue;
        }
        if p.as_os_str() == "-" {
            out.push(Input::Stdin);
        } else if is_device(p) {
            out.push(Input::Unreadable {
                name: path_name(p),
                why: "a device, not a file (its reading might never end)".into(),
            });
        } else {
            out.push(Input::File(p.clone()));
        }
    }
    out
}

/// The log files under the directory `p`, sorted by name, appended to `out`.
fn walk(p: &std::path::Path, out: &mut Vec<Input>) {
    let walker = walkdir::WalkDir::new(p)
        .follow_links(true)
        .sort_by_file_name();
    for entry in walker {
        match entry {
            Ok(e) => {
                if e.file_type().is_dir() {
                    continue;
                }
                let ext = e
                    .path()
                    .extension()
                    .and_then(|x| x.to_str())
                    .map(|x| x.to_ascii_lowercase());
                if taken(e.path(), ext.as_deref(), e.file_type().is_file()) {
                    if e.file_type().is_file() {
                        out.push(Input::File(e.path().to_path_buf()));
                    } else {
                        // A FIFO or device named like a log: opening it could block
                        // the walk or never end.
                        out.push(Input::Unreadable {
                            name: path_name(e.path()),
                            why: "not a regular file (a FIFO, socket or device)".into(),
                        });
                    }
                }
            }
            Err(e) => {
                let name = e.path().map(path_name).unwrap_or_else(|| path_name(p));
                let why = if e.loop_ancestor().is_some() {
                    "symbolic link loop".to_string()
                } else {
                    e.io_error()
                        .map(|io| io.to_string())
                        .unwrap_or_else(|| e.to_string())
                };
                out.push(Input::Unreadable { name, why });
            }
        }
    }
}

/// True for a character or block device or a socket: named on the command line, these are
/// refused (a FIFO, as from `<(...)`, is read as given).
fn is_device(p: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(p).is_ok_and(|m| {
            let t = m.file_type();
            t.is_char_device() || t.is_block_device() || t.is_socket()
        })
    }
    #[cfg(not(unix))]
    {
        let _ = p;
        false
    }
}

/// What a chunk holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkKind {
    /// One game of a native log.
    Native,
    /// One game of a Gravon XML file.
    Gravon,
    /// A binary XQF record ([`Chunk::raw`] holds its bytes; `text` is empty).
    Xqf,
    /// One DhtmlXQ block ([`Chunk::raw`] holds its bytes, `text` the same as UTF-8 with
    /// anything that is not, GB18030 text, shown as `?`).
    DhtmlXq,
    /// A whole source in a line format an importer reads ([`crate::record::Importer`]).
    Imported(crate::record::Importer),
    /// A source with no game at all (empty, or only white space).
    Empty,
    /// A source that could not be read; the reason.
    Unreadable(String),
    /// Bytes that are not text arbiter reads (binary data, UTF-16 or UTF-32); the reason,
    /// which says how to save the log.
    NotText(&'static str),
    /// `--game-index` past the last game: the source holds this many games
    /// ([`Chunk::first_index`] is the index asked for).
    NoSuchGame(usize),
}

/// A piece of a source: one native game, or a whole Gravon file.
#[derive(Debug, Clone)]
pub struct Chunk {
    /// The source's name.
    pub source: Arc<str>,
    /// What it holds.
    pub kind: ChunkKind,
    /// Byte offset of `text` in the source.
    pub offset: usize,
    /// 0-based line number of `text`'s first byte in the source.
    pub line: usize,
    /// Characters before `text`'s first byte on its line of the source (0 for a native game,
    /// which starts a line; a Gravon game may start inside one).
    pub column: usize,
    /// Bytes before `text`'s first byte on its line of the source (byte columns, as reviewdog
    /// counts them).
    pub column_bytes: usize,
    /// The text (invalid UTF-8 repaired as `?`).
    pub text: String,
    /// A binary record's bytes ([`ChunkKind::Xqf`]); empty for text.
    pub raw: Vec<u8>,
    /// Findings about the chunk's bytes that no game's reader makes: `parse-error`s for
    /// invalid UTF-8, a Gravon file's end before its root element closes (spans are source
    /// offsets).
    pub byte_findings: Vec<Finding>,
    /// Index (from 0) of the chunk's first game in its source.
    pub first_index: usize,
    /// The ruleset the source's text shows, for games that name none
    /// ([`crate::record::sniff::content_game`]).
    pub content_game: Option<crate::types::GameId>,
    /// An earlier game of the source named no ruleset by its tags.
    pub unnamed_before: bool,
    /// A native game in GB18030 (GBK, GB2312): its decoded text, which the grammar reads;
    /// `text` is then the display text of the original's length.
    pub decoded: Option<Box<crate::record::encoding::Decoded>>,
}

impl Chunk {
    /// The chunk that reports `--game-index index` past the last of the `games` games of
    /// the source `name`.
    pub fn no_such_game(name: &str, games: usize, index: usize) -> Chunk {
        let mut c = Chunk::special(Arc::from(name), ChunkKind::NoSuchGame(games));
        c.first_index = index;
        c
    }

    fn special(source: Arc<str>, kind: ChunkKind) -> Chunk {
        Chunk {
            source,
            kind,
            offset: 0,
            line: 0,
            column: 0,
            column_bytes: 0,
            text: String::new(),
            raw: Vec::new(),
            byte_findings: Vec::new(),
            first_index: 0,
            content_game: None,
            unnamed_before: false,
            decoded: None,
        }
    }
}

/// Characters in UTF-8 bytes (continuation bytes not counted).
fn char_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// Turns bytes into text: each invalid UTF-8 sequence becomes `?` bytes of the same length
/// and a `parse-error` finding (spans are `base` + offset).
pub fn repair_utf8(bytes: Vec<u8>, base: usize) -> (String, Vec<Finding>) {
    match String::from_utf8(bytes) {
        Ok(t) => (t, Vec::new()),
        Err(e) => {
            let mut bytes = e.into_bytes();
            let mut findings = Vec::new();
            let mut pos = 0;
            while pos < bytes.len() {
                let Err(err) = std::str::from_utf8(&bytes[pos..]) else {
                    break;
                };
                let bad_start = pos + err.valid_up_to();
                let bad_len = err.error_len().unwrap_or(bytes.len() - bad_start);
                for b in &mut bytes[bad_start..bad_start + bad_len] {
                    *b = b'?';
                }
                // Neighbouring bad sequences make one finding.
                match findings.last_mut() {
                    Some(Finding { span, .. }) if span.end == base + bad_start => {
                        span.end = base + bad_start + bad_len;
                    }
                    _ => findings.push(
                        Finding::new(
                            Code::ParseError,
                            Span::new(base + bad_start, base + bad_start + bad_len),
                            "invalid UTF-8 in the log",
                            Rule::LogUtf8,
                        )
                        .label("these bytes are not UTF-8")
                        .help(
                            "save the file as UTF-8; the game containing these bytes is not judged",
                        ),
                    ),
                }
                pos = bad_start + bad_len;
            }
            cap_findings(&mut findings);
            (String::from_utf8(bytes).unwrap_or_default(), findings)
        }
    }
}

/// Most invalid-UTF-8 findings a game gets one by one; the rest are counted in one more.
const MAX_UTF8_FINDINGS: usize = 16;

/// Keeps the first [`MAX_UTF8_FINDINGS`] invalid-UTF-8 findings and folds the others into
/// one that spans them and says how many there are: a game of random bytes is not judged
/// anyway, and its report stays readable and small.
fn cap_findings(findings: &mut Vec<Finding>) {
    if findings.len() <= MAX_UTF8_FINDINGS {
        return;
    }
    let rest = findings.split_off(MAX_UTF8_FINDINGS);
    let (first, last) = (rest[0].span, rest[rest.len() - 1].span);
    findings.push(
        Finding::new(
            Code::ParseError,
            first,
            format!("{} more runs of invalid UTF-8 in this game", rest.len()),
            Rule::LogUtf8,
        )
        .label("the first of them")
        .with_label(Span::new(last.start, last.end), "the last of them")
        .help("save the file as UTF-8; the game containing these bytes is not judged"),
    );
}

/// How many bytes of a source are looked at to know its format.
pub const SNIFF_BYTES: usize = 64 << 10;

/// A format a source is known by from its first bytes, whatever it is called
/// (docs/log-format.md, "Known by content").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KnownFormat {
    /// An XQF record ([`crate::record::xqf::looks_like_xqf`]).
    Xqf,
    /// Gravon XML ([`looks_like_gravon`]).
    Gravon,
    /// A line format an importer reads whole ([`crate::record::Importer::sniff`]).
    Imported(crate::record::Importer),
}

/// Why a source in UTF-16 or UTF-32 is not read (Windows Notepad's "Unicode"), known by its
/// byte order mark or, without one, by the NUL bytes between its ASCII characters: it would
/// be read as broken games of NUL bytes.
fn wide_text(head: &[u8]) -> Option<&'static str> {
    match head {
        [0xFF, 0xFE, 0, 0, ..] => Some("UTF-32 text (little-endian, byte order mark FF FE 00 00): arbiter reads UTF-8 (and GB18030); save the file as UTF-8"),
        [0, 0, 0xFE, 0xFF, ..] => Some("UTF-32 text (big-endian, byte order mark 00 00 FE FF): arbiter reads UTF-8 (and GB18030); save the file as UTF-8"),
        [0xFF, 0xFE, ..] => Some("UTF-16 text (little-endian, byte order mark FF FE): arbiter reads UTF-8 (and GB18030); save the file as UTF-8"),
        [0xFE, 0xFF, ..] => Some("UTF-16 text (big-endian, byte order mark FE FF): arbiter reads UTF-8 (and GB18030); save the file as UTF-8"),
        _ if ascii_in_utf16(head, 0) => Some("UTF-16 text (little-endian, no byte order mark): arbiter reads UTF-8 (and GB18030); save the file as UTF-8"),
        _ if ascii_in_utf16(head, 1) => Some("UTF-16 text (big-endian, no byte order mark): arbiter reads UTF-8 (and GB18030); save the file as UTF-8"),
        _ => None,
    }
}

/// True when `head` starts like text written as UTF-16 without a byte order mark, at least
/// 8 characters: in its first 64 bytes, the first character and at least half of them are
/// printable ASCII or white space (a NUL byte at `1 - at`, the character at `at`: 0
/// little-endian, 1 big-endian), and no character is NUL. Chinese or accented characters
/// among them (a tag value) do not hide it.
fn ascii_in_utf16(head: &[u8], at: usize) -> bool {
    let pairs = &head[..head.len().min(64) & !1];
    let ascii = |p: &[u8]| {
        let c = p[at];
        p[1 - at] == 0 && (c.is_ascii_graphic() || c.is_ascii_whitespace())
    };
    let count = pairs.chunks_exact(2).filter(|p| ascii(p)).count();
    pairs.len() >= 16
        && ascii(&pairs[..2])
        && 4 * count >= pairs.len()
        && pairs.chunks_exact(2).all(|p| p != [0, 0])
}

/// The format `head` (a source's first bytes) shows, tried in that order: XQF's magic,
/// Gravon's first element, an importer's lines. `None` for anything else (a DhtmlXQ page or
/// a native log, which the reader tells apart). The one decision behind both the reader
/// ([`ChunkReader`]) and the directory walk.
fn known_by_content(head: &[u8]) -> Option<KnownFormat> {
    if crate::record::xqf::looks_like_xqf(head) {
        Some(KnownFormat::Xqf)
    } else if looks_like_gravon(head) {
        Some(KnownFormat::Gravon)
    } else {
        crate::record::Importer::sniff(head).map(KnownFormat::Imported)
    }
}

/// True when `bytes` (a source's or a game's first bytes) start with binary data: their first
/// 4 KB or more (up to [`SNIFF_BYTES`]) hold no line end and are at least a quarter NUL. No
/// text record holds such a line, and an endless stream of it (`- < /dev/zero`) has no line
/// end to stop at. The same test decides for a source and for each of its games, so a game is
/// judged alike in its file and alone; a stray NUL in a text log is read as it is.
fn binary_line(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    head.len() >= 4096
        && memchr::memchr2(b'\n', b'\r', head).is_none()
        && memchr::memchr_iter(0, head).count() * 4 >= head.len()
}

/// Why a source or a game that [`binary_line`] finds is not read.
const BINARY: &str =
    "binary data, not a game log (a first line of 4 KB or more, mostly NUL); save a log as text (UTF-8)";

/// True when the text is XML whose first element is Gravon's `<stratego>` (or a bare
/// `<game>`): after a byte order mark, white space, the XML declaration, comments, processing
/// instructions and a DOCTYPE, however long, as far as `head` reaches.
pub fn looks_like_gravon(head: &[u8]) -> bool {
    first_element(head) != Some(FirstElement::Other)
}

/// The first element of XML text (see [`looks_like_gravon`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FirstElement {
    /// Gravon's root, `<stratego>`.
    Stratego,
    /// A bare `<game>`.
    Game,
    /// Any other element, or no markup.
    Other,
}

/// The first element of `head` after its prolog; `None` when the prolog runs past `head`.
fn first_element(head: &[u8]) -> Option<FirstElement> {
    let mut i = if head.starts_with(crate::record::encoding::BOM) {
        3
    } else {
        0
    };
    loop {
        while i < head.len() && head[i].is_ascii_whitespace() {
            i += 1;
        }
        let rest = &head[i..];
        let skip = |open: usize, close: &[u8]| {
            memchr::memmem::find(&rest[open..], close).map(|e| i + open + e + close.len())
        };
        let next = if rest.starts_with(b"<?") {
            skip(2, b"?>")
        } else if rest.starts_with(b"<!--") {
            skip(4, b"-->")
        } else if rest.starts_with(b"<!DOCTYPE") || rest.starts_with(b"<!doctype") {
            skip(9, b">")
        } else {
            let element = |name: &[u8]| {
                rest.starts_with(name)
                    && rest
                        .get(name.len())
                        .is_none_or(|c| c.is_ascii_whitespace() || b"/>".contains(c))
            };
            return Some(match () {
                _ if element(b"<stratego") => FirstElement::Stratego,
                _ if element(b"<game") => FirstElement::Game,
                _ => FirstElement::Other,
            });
        };
        match next {
            Some(n) => i = n,
            // The prolog runs past what was looked at: XML all the same.
            None => return None,
        }
    }
}

/// True when the text starts (after a byte order mark and white space) with markup, `<`:
/// a web page, whose DhtmlXQ record may lie past the first bytes looked at.
fn looks_like_markup(head: &[u8]) -> bool {
    let body = head
        .strip_prefix(crate::record::encoding::BOM)
        .unwrap_or(head);
    body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'<')
}

/// Up to [`SNIFF_BYTES`] first bytes of `reader` (fewer only at the end of the input), and
/// a reader that yields them and then the rest: the format is known whatever the file is
/// called and however the input arrives in pieces.
fn sniff(mut reader: Box<dyn Read + Send>) -> std::io::Result<(Vec<u8>, Box<dyn Read + Send>)> {
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    let mut buf = [0u8; 8192];
    while head.len() < SNIFF_BYTES {
        let n = match reader.read(&mut buf[..(SNIFF_BYTES - head.len()).min(8192)]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        head.extend_from_slice(&buf[..n]);
    }
    let again = std::io::Cursor::new(head.clone()).chain(reader);
    Ok((head, Box::new(again)))
}

/// Streams the chunks of one input.
pub fn chunks(input: &Input) -> Box<dyn Iterator<Item = Chunk> + Send> {
    let name: Arc<str> = Arc::from(input.name());
    let reader: Box<dyn Read + Send> = match input {
        Input::Unreadable { why, .. } => {
            return Box::new(std::iter::once(Chunk::special(
                name,
                ChunkKind::Unreadable(why.clone()),
            )))
        }
        Input::Stdin => Box::new(std::io::stdin()),
        Input::File(p) => match std::fs::File::open(p) {
            Ok(f) => Box::new(f),
            Err(e) => {
                return Box::new(std::iter::once(Chunk::special(
                    name,
                    ChunkKind::Unreadable(e.to_string()),
                )))
            }
        },
    };
    let (head, reader) = match sniff(reader) {
        Ok(r) => r,
        Err(e) => {
            return Box::new(std::iter::once(Chunk::special(
                name,
                ChunkKind::Unreadable(e.to_string()),
            )))
        }
    };
    let mut r = ChunkReader::new(name, BufReader::with_capacity(1 << 16, reader));
    r.head = Some(head);
    Box::new(r)
}

/// The chunks of a text already in memory (same cuts as [`chunks`]).
pub fn chunks_of_text(name: &str, bytes: Vec<u8>) -> Vec<Chunk> {
    ChunkReader::new(Arc::from(name), std::io::Cursor::new(bytes)).collect()
}

/// A column of the source: the characters and the bytes before a byte on its line (both
/// from 0; reports count characters, reviewdog bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Column {
    chars: usize,
    bytes: usize,
}

/// Line (from 0) and column after `bytes`, which start at `line` and `column`; only `\n`
/// starts a line, as in every report.
fn advance(line: usize, column: Column, bytes: &[u8]) -> (usize, Column) {
    match memchr::memrchr(b'\n', bytes) {
        Some(i) => (
            line + memchr::memchr_iter(b'\n', bytes).count(),
            Column {
                chars: char_count(&bytes[i + 1..]),
                bytes: bytes.len() - i - 1,
            },
        ),
        None => (
            line,
            Column {
                chars: column.chars + char_count(bytes),
                bytes: column.bytes + bytes.len(),
            },
        ),
    }
}

/// [`advance`] over one line as [`ChunkReader::next_line`] cuts it, where a `\n` can only be
/// the last byte: a line that ends with one (`lf`, as it tells) puts the next at column 0
/// without a second look.
fn advance_line(line: usize, column: Column, bytes: &[u8], lf: bool) -> (usize, Column) {
    if lf {
        return (line + 1, Column::default());
    }
    advance(line, column, bytes)
}

/// A chunk's text, its invalid-UTF-8 findings and its GB18030 decoding ([`Chunk::text`],
/// [`Chunk::byte_findings`], [`Chunk::decoded`]).
type ChunkText = (
    String,
    Vec<Finding>,
    Option<Box<crate::record::encoding::Decoded>>,
);

/// The streaming cutter behind [`chunks`].
pub struct ChunkReader<R: BufRead> {
    name: Arc<str>,
    reader: R,
    splitter: Splitter,
    /// Byte offset, line and column (from 0; the column in characters) of the next byte read.
    offset: usize,
    line: usize,
    column: Column,
    /// The native source's bytes from byte `block_offset` on: the current game's, the lines
    /// read ahead of it, and the rest of the last read. Lines are cut and games copied out
    /// of it where they lie (one copy of a game's bytes, none of a line's).
    block: Vec<u8>,
    block_offset: usize,
    /// Where the next line starts in `block`.
    pos: usize,
    /// Where the current game starts in `block`, once one has started.
    game_start: Option<usize>,
    /// The reader has no more bytes.
    eof: bool,
    /// Where the current game starts in the source (offset, line, column).
    cur_offset: usize,
    cur_line: usize,
    cur_column: Column,
    /// Where games end in the line being read (source offsets), kept for the next line.
    cuts: Vec<usize>,
    index: usize,
    state: ReaderState,
    pending: std::collections::VecDeque<Chunk>,
    /// The first bytes of the source, when [`chunks`] looked at them already.
    head: Option<Vec<u8>>,
    /// The ruleset the text shows ([`crate::record::sniff::content_game`] of its head).
    content: Option<crate::types::GameId>,
    /// A game read so far named no ruleset by its tags.
    unnamed_seen: bool,
}

enum ReaderState {
    Start,
    Native,
    Gravon(GravonStream),
    /// A file of DhtmlXQ blocks read whole: its bytes, each block's start and end, and the
    /// next block.
    DhtmlXq(Vec<u8>, Vec<(usize, usize)>, usize),
    Done,
}

/// A Gravon file read game by game: the bytes not yet handed out, from the start of the
/// current game's piece on (`buf[0]` is the reader's `offset`, `line` and `column`).
#[derive(Default)]
struct GravonStream {
    buf: Vec<u8>,
    scan: crate::record::gravon::GameScan,
    /// Where the current game's `<game` tag is in `buf`, once found.
    start: Option<usize>,
    /// No game handed out yet: the first game's piece starts with the file, so that its
    /// reader sees the prolog and reports anything in it.
    first: bool,
    /// The file opened the root element `<stratego>` before its first game.
    root: bool,
    eof: bool,
}

/// How much of a Gravon file is read at a time.
const GRAVON_BLOCK: usize = 64 << 10;

/// The room a native source's block keeps between games ([`ChunkReader::refill`]).
const NATIVE_BLOCK: usize = 64 << 10;

impl<R: BufRead> ChunkReader<R> {
    /// A reader of the source `name`.
    pub fn new(name: Arc<str>, reader: R) -> Self {
        ChunkReader {
            name,
            reader,
            splitter: Splitter::new(),
            offset: 0,
            line: 0,
            column: Column::default(),
            block: Vec::new(),
            block_offset: 0,
            pos: 0,
            game_start: None,
            eof: false,
            cur_offset: 0,
            cur_line: 0,
            cur_column: Column::default(),
            cuts: Vec::new(),
            index: 0,
            state: ReaderState::Start,
            pending: std::collections::VecDeque::new(),
            head: None,
            content: None,
            unnamed_seen: false,
        }
    }

    /// A chunk of `bytes` starting at byte `offset`, line `line` and column `column` of the
    /// source (invalid UTF-8 repaired), counted as the source's next game.
    fn emit(&mut self, bytes: Vec<u8>, at: (usize, usize, Column), kind: ChunkKind) -> Chunk {
        let (offset, line, column) = at;
        let kind = match kind {
            ChunkKind::Native if binary_line(&bytes) => ChunkKind::NotText(BINARY),
            k => k,
        };
        let unnamed_before = self.unnamed_seen;
        // Once a game named none, the later ones cannot change that: their tags go unread.
        if kind == ChunkKind::Native
            && !self.unnamed_seen
            && !crate::record::sniff::names_ruleset(&bytes)
        {
            self.unnamed_seen = true;
        }
        // UTF-8 (nearly every game) is validated once; only other bytes may be GB18030.
        let (text, byte_findings, decoded) = match String::from_utf8(bytes) {
            Ok(text) => (text, Vec::new(), None),
            Err(e) => Self::not_utf8(e.into_bytes(), offset, &kind),
        };
        let c = Chunk {
            source: self.name.clone(),
            kind,
            offset,
            line,
            column: column.chars,
            column_bytes: column.bytes,
            text,
            raw: Vec::new(),
            byte_findings,
            first_index: self.index,
            content_game: self.content,
            unnamed_before,
            decoded,
        };
        self.index += 1;
        c
    }

    /// The text, findings and GB18030 decoding of a chunk's `bytes` (at `offset`) that are not
    /// UTF-8: a native game's decoded, anything else repaired ([`repair_utf8`]).
    #[cold]
    fn not_utf8(bytes: Vec<u8>, offset: usize, kind: &ChunkKind) -> ChunkText {
        let decoded = match kind {
            ChunkKind::Native => crate::record::encoding::decode_gb(&bytes).map(Box::new),
            _ => None,
        };
        match decoded {
            Some(d) => {
                let f = vec![crate::record::encoding::gb_finding(&bytes, offset)];
                (d.display.clone(), f, Some(d))
            }
            None => {
                let (text, findings) = repair_utf8(bytes, offset);
                (text, findings, None)
            }
        }
    }

    /// The next native game: lines are cut where they lie in the block and fed to the
    /// [`Splitter`]; a line where a game starts ends the one before it (several games may
    /// start on one line).
    fn next_native(&mut self) -> Option<Chunk> {
        loop {
            let (n, lf) = match self.next_line() {
                Ok(Some(l)) => l,
                Ok(None) => return self.end_native(),
                Err(e) => return Some(self.unreadable(e.to_string())),
            };
            let start = self.pos;
            self.pos += n;
            let here = (self.offset, self.line, self.column);
            let line = &self.block[start..start + n];
            (self.line, self.column) = advance_line(self.line, self.column, line, lf);
            self.offset += n;
            let had_start = self.splitter.current_start().is_some();
            // The line's cuts, in a buffer kept from line to line (no allocation a game).
            let mut cuts = std::mem::take(&mut self.cuts);
            cuts.clear();
            split::feed(&mut self.splitter, line, here.0, |g| cuts.push(g.end));
            if !had_start && self.splitter.current_start().is_some() {
                // The game starts with this line; blank lines before it belong to no game.
                self.game_start = Some(start);
                (self.cur_offset, self.cur_line, self.cur_column) = here;
            }
            if !cuts.is_empty() {
                self.cut_line(start, here, &cuts);
                self.cuts = cuts;
                return self.pending.pop_front();
            }
            self.cuts = cuts;
        }
    }

    /// The length of the line at `pos` (its line end included) and whether it ends with
    /// `\n`, reading on as needed; `None` at the end of the source.
    fn next_line(&mut self) -> std::io::Result<Option<(usize, bool)>> {
        loop {
            let rest = &self.block[self.pos..];
            if let Some(k) = split::line_end(rest) {
                return Ok(Some((k, rest[k - 1] == b'\n')));
            }
            if self.eof {
                return Ok((!rest.is_empty()).then_some((rest.len(), false)));
            }
            self.refill()?;
        }
    }

    /// Reads on into the block. What is still needed (the current game and the line being
    /// read) is moved to its front first: a game is moved at most once, so a huge game costs
    /// no more than its length. One read a call, so a pipe's games are cut as they come.
    fn refill(&mut self) -> std::io::Result<()> {
        let keep = self.game_start.unwrap_or(self.pos);
        if keep > 0 {
            self.block.drain(..keep);
            self.block_offset += keep;
            self.pos -= keep;
            self.game_start = self.game_start.map(|g| g - keep);
        }
        if self.block.capacity() > 4 * NATIVE_BLOCK.max(self.block.len()) {
            // A huge game was read: the next ones do not keep its room.
            self.block.shrink_to(2 * NATIVE_BLOCK.max(self.block.len()));
        }
        let buf = loop {
            match self.reader.fill_buf() {
                Ok(b) => break b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        let n = buf.len();
        self.eof = n == 0;
        self.block.extend_from_slice(buf);
        self.reader.consume(n);
        Ok(())
    }

    /// Ends the current game at each of `cuts` (source offsets inside the line that starts at
    /// `block[line_start]`, at `here`, in order), queueing the games that end, each copied
    /// out of the block once.
    fn cut_line(&mut self, line_start: usize, here: (usize, usize, Column), cuts: &[usize]) {
        let base = self.block_offset;
        let Some(&first) = cuts.first() else {
            return;
        };
        let upto = self.block.get(line_start..first - base).unwrap_or_default();
        let (line, column) = advance(here.1, here.2, upto);
        let mut from = self.game_start.unwrap_or(line_start);
        let mut at = (self.cur_offset, self.cur_line, self.cur_column);
        let mut next = (first, line, column);
        for (i, &cut) in cuts.iter().enumerate() {
            let bytes = self.block[from..cut - base].to_vec();
            if i > 0 {
                // A game that starts and ends on this line: the next starts after its bytes.
                let (line, column) = advance(at.1, at.2, &bytes);
                next = (cut, line, column);
            }
            let chunk = self.emit(bytes, at, ChunkKind::Native);
            self.pending.push_back(chunk);
            from = cut - base;
            at = next;
        }
        self.game_start = Some(from);
        (self.cur_offset, self.cur_line, self.cur_column) = at;
    }

    /// The end of a native source: the last game, if there is one.
    fn end_native(&mut self) -> Option<Chunk> {
        self.state = ReaderState::Done;
        if self.splitter.current_start().is_some() {
            let bytes = self.block[self.game_start.unwrap_or(0)..].to_vec();
            if self.splitter.open_comment().is_some() {
                return self.cut_unterminated(bytes);
            }
            let at = (self.cur_offset, self.cur_line, self.cur_column);
            return Some(self.emit(bytes, at, ChunkKind::Native));
        }
        if self.index == 0 {
            let mut c = Chunk::special(self.name.clone(), ChunkKind::Empty);
            c.offset = self.offset;
            return Some(c);
        }
        None
    }

    /// The last game's bytes when the source ended inside a brace comment: the comment did
    /// not hide the games after it. The text is cut again from the line after the one that
    /// opened the comment, as if it were closed there: the game with the open comment keeps
    /// its `parse-error` (unterminated comment), each later game is judged on its own.
    fn cut_unterminated(&mut self, bytes: Vec<u8>) -> Option<Chunk> {
        let base = self.cur_offset;
        let mut cuts = vec![0usize];
        if let Some(open) = self.splitter.open_comment() {
            // One pass: no `}` follows the comment, so every later comment ends with its line.
            let rel = open.saturating_sub(base).min(bytes.len());
            let from = split::line_end(&bytes[rel..]).map_or(bytes.len(), |k| rel + k);
            let mut sp = self.splitter.resumed(base);
            for (at, line) in split::lines(&bytes[from..]) {
                split::feed(&mut sp, line, base + from + at, |g| cuts.push(g.end - base));
            }
        }
        cuts.push(bytes.len());
        let (mut line, mut column) = (self.cur_line, self.cur_column);
        for w in cuts.windows(2) {
            let piece = bytes[w[0]..w[1]].to_vec();
            let at = (base + w[0], line, column);
            (line, column) = advance(line, column, &piece);
            let chunk = self.emit(piece, at, ChunkKind::Native);
            self.pending.push_back(chunk);
        }
        self.pending.pop_front()
    }

    /// The games of an importer's source `all`, one chunk each
    /// ([`crate::record::Importer::game_starts`]): a file of several judge logs or saved
    /// games reports each, where its first game was judged against the last one's end. A
    /// native log after one of them ([`split::native_log_start`]) is read as native games.
    fn cut_imported(&mut self, all: Vec<u8>, importer: crate::record::Importer) -> Option<Chunk> {
        let starts = importer.game_starts(&all);
        let ends = starts.iter().skip(1).map(|&(at, _)| at).chain([all.len()]);
        let (mut line, mut column) = (0, Column::default());
        for (&(start, importer), end) in starts.iter().zip(ends) {
            let tail = split::native_log_start(&all[..end], start).filter(|&t| t > start);
            let stop = tail.unwrap_or(end);
            let piece = all[start..stop].to_vec();
            let at = (start, line, column);
            (line, column) = advance(line, column, &piece);
            let chunk = self.emit(piece, at, ChunkKind::Imported(importer));
            self.pending.push_back(chunk);
            if let Some(t) = tail {
                let native = all[t..end].to_vec();
                let at_line = line;
                (line, column) = advance(line, column, &native);
                self.native_tail(t, at_line, native);
            }
        }
        self.pending.pop_front()
    }

    /// The next game of a Gravon file, read game by game: one chunk a `<game>` element
    /// ([`crate::record::gravon::game_pieces`] gives the same pieces), so each game is
    /// reported whatever happens to its neighbours and memory stays bounded by the largest.
    fn next_gravon(&mut self) -> Option<Chunk> {
        use crate::record::gravon::{game_end, game_start};
        loop {
            let ReaderState::Gravon(g) = &mut self.state else {
                return None;
            };
            let found = g.scan.next(&g.buf, g.eof);
            // The current game's `<game` tag, and where the next one is (None: the end).
            let piece = match (g.start, found) {
                (None, Some(s)) => {
                    g.start = Some(s);
                    continue;
                }
                (Some(s), Some(t)) => Some((s, Some(t))),
                (Some(s), None) if g.eof => Some((s, None)),
                // A file without any game: one piece, whose reader says so.
                (None, None) if g.eof => {
                    let all = std::mem::take(&mut g.buf);
                    self.state = ReaderState::Done;
                    let at = (self.offset, self.line, self.column);
                    return Some(self.emit(all, at, ChunkKind::Gravon));
                }
                _ => None,
            };
            let Some((s, next)) = piece else {
                if let Err(e) = self.fill_gravon() {
                    return Some(self.unreadable(e.to_string()));
                }
                continue;
            };
            let tail = next
                .is_none()
                .then(|| crate::record::gravon::native_tail(&g.buf, s))
                .flatten();
            let limit = next.or(tail).unwrap_or(g.buf.len());
            let start = if g.first { 0 } else { game_start(&g.buf, 0, s) };
            let end = game_end(&g.buf, s, limit);
            g.root |= g.first && first_element(&g.buf[..s]) == Some(FirstElement::Stratego);
            // The last game of a file whose root never closes: the file may be cut short.
            let cut_short = (next.is_none() && tail.is_none() && g.root)
                .then(|| crate::record::gravon::cut_short(&g.buf[s..], self.offset + s))
                .flatten();
            let before = advance(self.line, self.column, &g.buf[..start]);
            let at = (self.offset + start, before.0, before.1);
            let bytes = g.buf[start..end].to_vec();
            // What lies before the next game's piece is dropped: its reader starts after it.
            let (line, column) = advance(before.0, before.1, &g.buf[start..end]);
            // A native log after the last game: its bytes and where they start.
            let tail = tail.map(|t| {
                let (tline, _) = advance(line, column, &g.buf[end..t]);
                (self.offset + t, tline, g.buf.split_off(t))
            });
            g.buf.drain(..end);
            g.scan.shift(end);
            g.start = next.map(|t| t - end);
            g.first = false;
            if g.start.is_none() {
                self.state = ReaderState::Done;
            }
            (self.offset, self.line, self.column) = (self.offset + end, line, column);
            let mut chunk = self.emit(bytes, at, ChunkKind::Gravon);
            chunk.byte_findings.extend(cut_short);
            if let Some((offset, line, bytes)) = tail {
                self.native_tail(offset, line, bytes);
            }
            return Some(chunk);
        }
    }

    /// The native games of `tail`, a native log after a Gravon file's last game
    /// ([`crate::record::gravon::native_tail`]) or after an importer's game
    /// ([`split::native_log_start`]), which starts a line at byte `base` and line `line` of
    /// the source, queued after that game.
    fn native_tail(&mut self, base: usize, line: usize, tail: Vec<u8>) {
        for mut c in ChunkReader::new(self.name.clone(), std::io::Cursor::new(tail)) {
            c.offset += base;
            c.line += line;
            for f in &mut c.byte_findings {
                f.span = Span::new(f.span.start + base, f.span.end + base);
                for l in &mut f.labels {
                    l.span = Span::new(l.span.start + base, l.span.end + base);
                }
            }
            c.first_index = self.index;
            self.index += 1;
            self.pending.push_back(c);
        }
    }

    /// Reads the next block of a Gravon file into its buffer (`eof` at the end).
    fn fill_gravon(&mut self) -> std::io::Result<()> {
        let ReaderState::Gravon(g) = &mut self.state else {
            return Ok(());
        };
        let had = g.buf.len();
        let n = (&mut self.reader)
            .take(GRAVON_BLOCK as u64)
            .read_to_end(&mut g.buf)?;
        g.eof = n == 0;
        debug_assert_eq!(g.buf.len(), had + n);
        Ok(())
    }

    /// Reads a file that holds DhtmlXQ blocks, or a web page that may (its record can lie
    /// past the first bytes looked at), whole; a page without one is unreadable, saying so.
    fn start_dhtmlxq(&mut self) -> Option<Chunk> {
        let mut all = Vec::new();
        if let Err(e) = self.reader.read_to_end(&mut all) {
            return Some(self.unreadable(e.to_string()));
        }
        let pieces = crate::record::dhtmlxq::blocks(&all);
        if pieces.is_empty() {
            return Some(self.unreadable(
                "markup (a web page or XML) with no DhtmlXQ record and no Gravon game in it".into(),
            ));
        }
        self.state = ReaderState::DhtmlXq(all, pieces, 0);
        self.next_dhtmlxq()
    }

    /// The next block of a DhtmlXQ file read whole: its bytes as they are (GB18030 text is
    /// no invalid UTF-8 here; the reader decodes it) and as text for excerpts. Lines are
    /// counted on from the previous block (linear over the whole file).
    fn next_dhtmlxq(&mut self) -> Option<Chunk> {
        let ReaderState::DhtmlXq(all, pieces, next) = &mut self.state else {
            return None;
        };
        let Some(&(start, end)) = pieces.get(*next) else {
            let (all, from) = (std::mem::take(all), pieces.last().map_or(0, |p| p.1));
            self.state = ReaderState::Done;
            return self.dhtmlxq_native_tail(&all, from);
        };
        *next += 1;
        let raw = all[start..end].to_vec();
        let (line, column) = advance(self.line, self.column, &all[self.offset..start]);
        (self.offset, self.line, self.column) = (start, line, column);
        let mut c = self.emit(raw.clone(), (start, line, column), ChunkKind::DhtmlXq);
        c.byte_findings.clear();
        c.raw = raw;
        Some(c)
    }

    /// A native log after a DhtmlXQ file's last block, which ends at `from`: its games are
    /// read as native games ([`split::native_log_after`]: a line that opens with a tag pair).
    /// A web page's own text is never searched: the log must follow the page's `</html>`,
    /// and a file without one has none.
    fn dhtmlxq_native_tail(&mut self, all: &[u8], from: usize) -> Option<Chunk> {
        let k = memchr::memmem::rfind(&all[from..].to_ascii_lowercase(), b"</html>")?;
        let page_end = from + k + b"</html>".len();
        let t = split::native_log_after(all, page_end)?;
        let (line, _) = advance(self.line, self.column, &all[self.offset..t]);
        self.native_tail(t, line, all[t..].to_vec());
        self.pending.pop_front()
    }

    fn unreadable(&mut self, why: String) -> Chunk {
        self.state = ReaderState::Done;
        Chunk::special(self.name.clone(), ChunkKind::Unreadable(why))
    }

    /// The one chunk of a source whose bytes are not text arbiter reads (`why`).
    fn not_text(&mut self, why: &'static str) -> Chunk {
        self.state = ReaderState::Done;
        Chunk::special(self.name.clone(), ChunkKind::NotText(why))
    }

    /// Knows the source's format from its first bytes ([`chunks`] may have read them
    /// already): an XQF record is read whole, a Gravon file game by game, anything else as
    /// a native log.
    fn start(&mut self) -> Option<Chunk> {
        let looked = self.head.take();
        let head = match &looked {
            Some(h) => h.as_slice(),
            None => match self.reader.fill_buf() {
                Ok(h) => h,
                Err(e) => return Some(self.unreadable(e.to_string())),
            },
        };
        if let Some(why) = wide_text(head) {
            return Some(self.not_text(why));
        }
        match known_by_content(head) {
            Some(KnownFormat::Xqf) => {
                let mut all = Vec::new();
                self.state = ReaderState::Done;
                if let Err(e) = self.reader.read_to_end(&mut all) {
                    return Some(self.unreadable(e.to_string()));
                }
                let mut c = self.emit(Vec::new(), (0, 0, Column::default()), ChunkKind::Xqf);
                c.raw = all;
                return Some(c);
            }
            Some(KnownFormat::Gravon) => {
                self.state = ReaderState::Gravon(GravonStream {
                    first: true,
                    ..GravonStream::default()
                });
                return self.next_gravon();
            }
            Some(KnownFormat::Imported(importer)) => {
                let mut all = Vec::new();
                self.state = ReaderState::Done;
                if let Err(e) = self.reader.read_to_end(&mut all) {
                    return Some(self.unreadable(e.to_string()));
                }
                return self.cut_imported(all, importer);
            }
            None => {}
        }
        if crate::record::dhtmlxq::looks_like_dhtmlxq(head) || looks_like_markup(head) {
            return self.start_dhtmlxq();
        }
        if binary_line(head) {
            // Not read on: an endless stream would be read into memory until it ran out.
            return Some(self.not_text(BINARY));
        }
        self.content = crate::record::sniff::content_game(&head[..head.len().min(SNIFF_BYTES)]);
        self.state = ReaderState::Native;
        self.next_native()
    }
}

impl<R: BufRead> Iterator for ChunkReader<R> {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        if let Some(p) = self.pending.pop_front() {
            return Some(p);
        }
        match self.state {
            ReaderState::Start => self.start(),
            ReaderState::Native => self.next_native(),
            ReaderState::Gravon(_) => self.next_gravon(),
            ReaderState::DhtmlXq(..) => self.next_dhtmlxq(),
            ReaderState::Done => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_games_with_offsets_and_lines() {
        let text = "\n[Game \"x\"]\n1. a2a3\n\n[Game \"y\"]\n1. b2b3 *\n";
        let c = chunks_of_text("t", text.as_bytes().to_vec());
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].offset, c[0].line, c[0].first_index), (1, 1, 0));
        assert_eq!(&text[c[0].offset..c[0].offset + c[0].text.len()], c[0].text);
        assert_eq!((c[1].line, c[1].first_index), (4, 1));
        assert!(c[1].text.starts_with("[Game \"y\"]"));
    }

    /// Games that share one line are each cut with their own bytes and places, in one
    /// copy: every game's buffer is its own size (each once held the rest of the line, which
    /// made 20,000 games on a 1 MB line take 9 GB and 24 s).
    #[test]
    fn games_on_one_line_are_cut_in_one_copy() {
        let game = "[Game \"xiangqi\"] 1. h2e2 h9g7 1-0 ";
        let n = 3_000;
        let text = format!("\n  {}\n", game.repeat(n));
        let c = chunks_of_text("t", text.clone().into_bytes());
        assert_eq!(c.len(), n);
        // The first game starts with its line (white space before it is its own).
        assert_eq!((c[0].offset, c[0].line, c[0].column), (1, 1, 0));
        for (i, g) in c.iter().enumerate() {
            assert_eq!(g.first_index, i);
            if i > 0 {
                assert_eq!(g.offset, 3 + i * game.len());
                assert_eq!((g.line, g.column), (1, 2 + i * game.len()));
            }
            assert_eq!(&text[g.offset..g.offset + g.text.len()], g.text);
            assert!(g.text.capacity() <= 2 * g.text.len() + 4096, "game {i}");
        }
    }

    #[test]
    fn empty_and_gravon() {
        let c = chunks_of_text("t", b"  \n\n".to_vec());
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].kind, ChunkKind::Empty);
        let c = chunks_of_text(
            "t",
            b"\xEF\xBB\xBF<?xml version=\"1.0\"?><stratego/>".to_vec(),
        );
        assert_eq!(c[0].kind, ChunkKind::Gravon);
    }

    /// A reader that hands out its bytes `step` at a time, as a pipe may.
    struct Trickle(Vec<u8>, usize, usize);
    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.2.min(buf.len()).min(self.0.len() - self.1);
            buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
            self.1 += n;
            Ok(n)
        }
    }

    /// The chunks of `bytes` read `step` bytes at a time, through the same path as files.
    fn trickled(bytes: &[u8], step: usize) -> Vec<Chunk> {
        let (head, reader) = sniff(Box::new(Trickle(bytes.to_vec(), 0, step))).unwrap();
        let mut r = ChunkReader::new(Arc::from("t"), BufReader::with_capacity(step, reader));
        r.head = Some(head);
        r.collect()
    }

    /// Every chunk's text is its bytes of the source, and its line and column are where
    /// those bytes start (lines end at LF only, as in every report).
    fn assert_placed(source: &str, chunks: &[Chunk]) {
        for c in chunks {
            assert_eq!(&source[c.offset..c.offset + c.text.len()], c.text);
            let before = &source[..c.offset];
            let line = before.matches('\n').count();
            let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
                .chars()
                .count();
            assert_eq!((c.line, c.column), (line, column), "{:?}", c.text);
        }
    }

    #[test]
    fn games_on_one_line_and_every_line_end() {
        let text = "[A \"é\"] 1. a2a3 * [B \"2\"] 1. b2b3 *\r[C \"3\"]\r\n1. c2c3 *\r\r[D \"4\"]\n";
        for step in [1, 2, 3, 7, 64, 1 << 16] {
            let c = trickled(text.as_bytes(), step);
            let texts: Vec<&str> = c.iter().map(|c| c.text.as_str()).collect();
            assert_eq!(
                texts,
                vec![
                    "[A \"é\"] 1. a2a3 * ",
                    "[B \"2\"] 1. b2b3 *\r",
                    "[C \"3\"]\r\n1. c2c3 *\r\r",
                    "[D \"4\"]\n"
                ],
                "step {step}"
            );
            assert_placed(text, &c);
            assert_eq!(c[1].column, 18);
        }
    }

    #[test]
    fn gravon_streamed_in_pieces_is_cut_as_read_whole() {
        let game = "<game type=\"classic\"><move id=\"1\" source=\"A4\" target=\"A5\"/></game>";
        let text = format!(
            "<?xml version=\"1.0\"?>\n<!-- <game> in a comment -->\n<stratego>\n {game}\n {game}<x/><![CDATA[<game>]]>\n{game}</stratego>\n"
        );
        let whole = crate::record::gravon::game_pieces(text.as_bytes());
        assert_eq!(whole.len(), 3);
        for step in [1, 5, 9, 10, 100, 1 << 16] {
            let c = trickled(text.as_bytes(), step);
            let pieces: Vec<(usize, usize)> = c
                .iter()
                .map(|c| (c.offset, c.offset + c.text.len()))
                .collect();
            assert_eq!(pieces, whole, "step {step}");
            assert_placed(&text, &c);
            assert!(c.iter().all(|c| c.kind == ChunkKind::Gravon));
        }
        // the first piece holds the prolog, the second the junk after its game
        assert!(c_text(&text, whole[0]).starts_with("<?xml"));
        assert!(c_text(&text, whole[1]).contains("<x/><![CDATA[<game>]]>"));
        assert!(c_text(&text, whole[2]).ends_with("</game>"));
    }

    #[test]
    fn gravon_pieces_across_many_blocks() {
        let game = |fill: &str| {
            format!("<game type=\"barrage\"><!-- {fill} --><move id=\"1\" source=\"A4\" target=\"A5\"/></game>\n")
        };
        let long = "<game> -".repeat(20_000);
        let text = format!(
            "<stratego>\n{}{}<![CDATA[{long}]]>{}<?pi {long}?>{}</stratego>",
            game(""),
            game(&long),
            game("x"),
            game("")
        );
        let whole = crate::record::gravon::game_pieces(text.as_bytes());
        assert_eq!(whole.len(), 4);
        for step in [4096, 1 << 16] {
            let c = trickled(text.as_bytes(), step);
            let pieces: Vec<(usize, usize)> = c
                .iter()
                .map(|c| (c.offset, c.offset + c.text.len()))
                .collect();
            assert_eq!(pieces, whole, "step {step}");
            assert_placed(&text, &c);
        }
    }

    fn c_text(text: &str, (a, b): (usize, usize)) -> &str {
        &text[a..b]
    }

    #[cfg(unix)]
    #[test]
    fn file_names_print_apart_and_read_back() {
        use std::os::unix::ffi::OsStrExt;
        let names: [&[u8]; 4] = [
            b"bad\xff.arb",
            b"bad\\xFF.arb",
            b"bad\\\\xFF.arb",
            b"ok/\xce\xbb.arb",
        ];
        let printed: Vec<String> = names
            .iter()
            .map(|n| path_name(std::path::Path::new(std::ffi::OsStr::from_bytes(n))))
            .collect();
        assert_eq!(printed[0], "bad\\xFF.arb");
        assert_eq!(printed[1], "bad\\\\xFF.arb");
        assert_eq!(printed[3], "ok/λ.arb");
        for (n, p) in names.iter().zip(&printed) {
            assert_eq!(&name_bytes(p), n);
        }
    }

    #[test]
    fn invalid_utf8_keeps_offsets() {
        let (t, f) = repair_utf8(b"ab\xff\xfecd".to_vec(), 10);
        assert_eq!(t, "ab??cd");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].span, Span::new(12, 14));
    }
}
