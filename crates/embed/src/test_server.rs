//! A loopback HTTP/1.1 server for tests: answers each request with a handler
//! and records what it received. Only ever binds 127.0.0.1.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// One received request.
#[derive(Debug, Clone)]
pub struct Request {
    /// Request path, e.g. `/v1/embeddings`.
    pub path: String,
    /// Lower-case header names.
    pub headers: HashMap<String, String>,
    /// The JSON body (`Null` when there was none or it was not JSON).
    pub body: serde_json::Value,
}

/// What to answer.
pub struct Reply {
    /// HTTP status code.
    pub status: u16,
    /// Extra headers, e.g. `Retry-After`.
    pub headers: Vec<(String, String)>,
    /// The body, sent as JSON.
    pub body: String,
}

impl Reply {
    /// A JSON reply with this status.
    pub fn json(status: u16, body: &serde_json::Value) -> Self {
        Self { status, headers: Vec::new(), body: body.to_string() }
    }

    /// The reply with one more header.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }
}

type Handler = dyn Fn(usize, &Request) -> Reply + Send + Sync;

/// A running server; the thread lives until the test binary exits.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    /// Starts a server whose `handler` gets the 0-based request number and the request.
    pub fn start(handler: impl Fn(usize, &Request) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&requests);
        let handler: Arc<Handler> = Arc::new(handler);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                serve(stream, &seen, handler.as_ref());
            }
        });
        Self { url, requests }
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }

    /// How many requests were received.
    pub fn count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

fn serve(stream: TcpStream, seen: &Mutex<Vec<Request>>, handler: &Handler) {
    let Some(request) = read_request(&stream) else {
        return;
    };
    let n = {
        let mut seen = seen.lock().unwrap();
        seen.push(request.clone());
        seen.len() - 1
    };
    let reply = handler(n, &request);
    let mut out = format!(
        "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        reply.status,
        reply.body.len()
    );
    for (k, v) in &reply.headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    out.push_str(&reply.body);
    let mut stream = stream;
    let _ = stream.write_all(out.as_bytes());
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let path = line.split_whitespace().nth(1)?.to_string();
    let mut headers = HashMap::new();
    loop {
        line.clear();
        reader.read_line(&mut line).ok()?;
        let Some((k, v)) = line.trim_end().split_once(':') else {
            break;
        };
        headers.insert(k.trim().to_lowercase(), v.trim().to_string());
    }
    let len: usize = headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0; len];
    reader.read_exact(&mut body).ok()?;
    let body = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
    Some(Request { path, headers, body })
}
