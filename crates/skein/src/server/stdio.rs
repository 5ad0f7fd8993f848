//! The stdio transport of `skein server`: the base protocol's framing
//! (`Content-Length: N\r\n\r\n` then N bytes of JSON) read and written on
//! two threads of skein's own, in place of `lsp_server::Connection::stdio`,
//! whose reader allocates whatever length a header declares (a client, or
//! a stray `printf`, that says 100 TB aborts the process). Here a header
//! is read line by line, each line at most [`MAX_HEADER_LINE`] bytes, and
//! a declared length over [`MAX_MESSAGE`] is an error before anything is
//! allocated; the body is read as it arrives, so a short input costs what
//! it holds.

use crossbeam_channel::bounded;
use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read};
use std::thread::JoinHandle;

/// The largest message body read, in bytes (64 MiB): far above any
/// document an editor sends (skein reads no artifact over 10 MiB by
/// default), far below what would exhaust memory.
pub const MAX_MESSAGE: u64 = 64 << 20;

/// The longest header line read, `\r\n` included.
pub const MAX_HEADER_LINE: u64 = 1024;

/// The threads of a stdio connection.
pub(crate) struct IoThreads {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits for both threads: the reader's error first (why the input
    /// stopped), then the writer's.
    pub(crate) fn join(self) -> io::Result<()> {
        let reader = self
            .reader
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        let writer = self
            .writer
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        reader.and(writer)
    }
}

/// A connection over stdin and stdout. The reader stops after `exit`, at
/// the end of the input, or at the first message it cannot read (its
/// error is then [`IoThreads::join`]'s); the writer stops when every
/// sender is dropped.
pub(crate) fn connection() -> io::Result<(Connection, IoThreads)> {
    let (to_client, outgoing) = bounded::<Message>(0);
    let writer = std::thread::Builder::new()
        .name("skein-lsp-writer".into())
        .spawn(move || {
            let mut out = io::stdout().lock();
            for msg in outgoing {
                // Framed and flushed by `lsp_server`.
                msg.write(&mut out)?;
            }
            Ok(())
        })?;
    let (incoming, from_client) = bounded::<Message>(0);
    let reader = std::thread::Builder::new()
        .name("skein-lsp-reader".into())
        .spawn(move || {
            let mut input = io::stdin().lock();
            while let Some(msg) = read_message(&mut input)? {
                let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                if incoming.send(msg).is_err() || exit {
                    // The server stopped listening, or the session is over.
                    break;
                }
            }
            Ok(())
        })?;
    Ok((
        Connection {
            sender: to_client,
            receiver: from_client,
        },
        IoThreads { reader, writer },
    ))
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// Reads one message: `None` at the end of the input before a message
/// starts.
///
/// # Errors
/// `InvalidData` for a header that is not the base protocol's (a line
/// without `\r\n`, longer than [`MAX_HEADER_LINE`], without `: `; no
/// `Content-Length`, or one that is not a number or is over
/// [`MAX_MESSAGE`]) or a body that is not a JSON-RPC message;
/// `UnexpectedEof` when the input ends inside a message.
pub(crate) fn read_message(input: &mut impl BufRead) -> io::Result<Option<Message>> {
    let mut length = None;
    let mut line = Vec::new();
    let mut first = true;
    loop {
        line.clear();
        let n = input
            .by_ref()
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            if first {
                return Ok(None);
            }
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the input ended inside a message header",
            ));
        }
        first = false;
        let Some(text) = line.strip_suffix(b"\r\n") else {
            return Err(invalid(if line.len() as u64 == MAX_HEADER_LINE {
                format!("a message header line is longer than {MAX_HEADER_LINE} bytes")
            } else {
                format!(
                    "malformed message header {:?}: each header line ends with \\r\\n",
                    String::from_utf8_lossy(&line)
                )
            }));
        };
        if text.is_empty() {
            break;
        }
        let text = String::from_utf8_lossy(text);
        let Some((name, value)) = text.split_once(": ") else {
            return Err(invalid(format!(
                "malformed message header {text:?}: a header is `Name: value`"
            )));
        };
        if name.eq_ignore_ascii_case("Content-Length") {
            let n: u64 = value.trim().parse().map_err(|_| {
                invalid(format!("Content-Length {value:?} is not a number of bytes"))
            })?;
            if n > MAX_MESSAGE {
                return Err(invalid(format!(
                    "Content-Length {n} is over the limit of {MAX_MESSAGE} bytes (64 MiB): not read"
                )));
            }
            length = Some(n);
        }
    }
    let length = length.ok_or_else(|| invalid("a message header without Content-Length".into()))?;
    let mut body = Vec::new();
    input.by_ref().take(length).read_to_end(&mut body)?;
    if (body.len() as u64) < length {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "the input ended inside a message: {} of its {length} bytes",
                body.len()
            ),
        ));
    }
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| invalid(format!("a message that is not JSON-RPC: {e}")))
}
