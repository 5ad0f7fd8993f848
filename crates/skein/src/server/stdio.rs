//! The stdio transport of `skein server`: the base protocol's framing
//! (`Content-Length: N\r\n\r\n` then N bytes of JSON) read and written on
//! two threads of skein's own, in place of `lsp_server::Connection::stdio`,
//! whose reader allocates whatever length a header declares (a client, or
//! a stray `printf`, that says 100 TB aborts the process). Here a header
//! is read line by line, each line at most [`MAX_HEADER_LINE`] bytes, and
//! a declared length over [`MAX_MESSAGE`] is an error before anything is
//! allocated; the body is read as it arrives, so a short input costs what
//! it holds. A body that is not a JSON-RPC message, in a correct frame, is
//! answered with the JSON-RPC error for it (-32700 or -32600, `id` null)
//! and the session goes on.

use crossbeam_channel::bounded;
use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};
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
/// the end of the input, or at the first input that breaks the framing
/// (its error is then [`IoThreads::join`]'s); a framed body that is no
/// message is answered with a JSON-RPC error ([`Rejected`]), noted on
/// stderr, and skipped. The writer stops when every sender is dropped.
pub(crate) fn connection() -> io::Result<(Connection, IoThreads)> {
    let (to_client, outgoing) = bounded::<Message>(0);
    // The reader's answers to bodies that are no message, which the
    // server's `Message` cannot say (their `id` is `null`).
    let (rejections, rejected) = bounded::<Rejected>(1);
    let writer = std::thread::Builder::new()
        .name("skein-lsp-writer".into())
        .spawn(move || {
            let mut out = io::stdout().lock();
            let mut rejected = Some(rejected);
            loop {
                let mut select = crossbeam_channel::Select::new();
                let messages = select.recv(&outgoing);
                let refusals = rejected.as_ref().map(|r| select.recv(r));
                let op = select.select();
                if op.index() == messages {
                    let Ok(msg) = op.recv(&outgoing) else {
                        return Ok(());
                    };
                    // Framed and flushed by `lsp_server`.
                    msg.write(&mut out)?;
                } else if let Some(r) = rejected.as_ref().filter(|_| Some(op.index()) == refusals) {
                    match op.recv(r) {
                        Ok(rej) => rej.write(&mut out)?,
                        // The reader is done: only the server's messages remain.
                        Err(_) => rejected = None,
                    }
                }
            }
        })?;
    let (incoming, from_client) = bounded::<Message>(0);
    let reader = std::thread::Builder::new()
        .name("skein-lsp-reader".into())
        .spawn(move || {
            let mut input = io::stdin().lock();
            while let Some(frame) = read_message(&mut input)? {
                let msg = match frame {
                    Frame::Message(msg) => msg,
                    Frame::Rejected(rej) => {
                        eprintln!(
                            "skein server: {}; answered with error {}",
                            rej.reason, rej.code
                        );
                        if rejections.send(rej).is_err() {
                            break;
                        }
                        continue;
                    }
                };
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

/// What one framed body holds.
#[derive(Debug)]
pub(crate) enum Frame {
    /// A JSON-RPC message.
    Message(Message),
    /// A body that is no message, framed correctly: answered with a
    /// JSON-RPC error, and the session goes on.
    Rejected(Rejected),
}

/// A body answered with a JSON-RPC error whose `id` is `null` (JSON-RPC
/// 2.0, section 5: "Parse error" -32700 for a body that is not JSON,
/// "Invalid Request" -32600 for JSON that is not a message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rejected {
    /// -32700 or -32600.
    pub(crate) code: i64,
    /// Why, for the error's `message` and the server's log.
    pub(crate) reason: String,
}

impl Rejected {
    /// Writes the error response, framed, and flushes.
    fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let body = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {"code": self.code, "message": self.reason},
        })
        .to_string();
        write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
        out.flush()
    }
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// Reads one framed body: `None` at the end of the input before a message
/// starts. A body that is not a JSON-RPC message is [`Frame::Rejected`]:
/// its frame was read whole, so the next message can still be read.
///
/// # Errors
/// `InvalidData` for a header that is not the base protocol's (a line
/// without `\r\n`, longer than [`MAX_HEADER_LINE`], without `: `; no
/// `Content-Length`, or one that is not a number or is over
/// [`MAX_MESSAGE`]); `UnexpectedEof` when the input ends inside a message.
pub(crate) fn read_message(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
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
    let value: serde_json::Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => {
            return Ok(Some(Frame::Rejected(Rejected {
                code: -32700,
                reason: format!("a message body that is not JSON: {e}"),
            })));
        }
    };
    Ok(Some(match serde_json::from_value(value) {
        Ok(msg) => Frame::Message(msg),
        Err(e) => Frame::Rejected(Rejected {
            code: -32600,
            reason: format!("a message that is not JSON-RPC: {e}"),
        }),
    }))
}
