//! `fairdice serve` run as a user would, and `dist --chart`: the web API serves
//! byte for byte what `dist --json` prints.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

fn fairdice() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fairdice"))
}

/// A running `fairdice serve --port 0`, stopped when dropped.
struct Served {
    child: Child,
    addr: String,
}

impl Served {
    fn start() -> Served {
        let mut child = fairdice()
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("fairdice serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the address line");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Served { child, addr }
    }

    /// The status line and body of `GET path`.
    fn get(&self, path: &str) -> (String, String) {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        )
        .expect("send");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("read");
        let (head, body) = response.split_once("\r\n\r\n").expect("headers end");
        let status = head.lines().next().unwrap_or("").to_string();
        (status, body.to_string())
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What `fairdice ARGS --json` prints.
fn cli_json(args: &[&str]) -> String {
    let output = fairdice()
        .args(args)
        .arg("--json")
        .output()
        .expect("fairdice runs");
    assert!(output.status.success(), "{args:?}");
    String::from_utf8(output.stdout).expect("utf-8")
}

fn dist_json(expression: &str) -> String {
    cli_json(&["dist", expression])
}

#[test]
fn the_api_serves_exactly_what_dist_json_prints() {
    let served = Served::start();
    for (expression, query) in [
        ("3d6", "3d6"),
        ("4d6kh3", "4d6kh3"),
        ("d20+5 >= 15", "d20%2B5+%3E%3D+15"),
        ("100d6", "100d6"),
    ] {
        let (status, body) = served.get(&format!("/api/dist?expr={query}"));
        assert!(status.contains("200"), "{expression}: {status}");
        assert_eq!(body, dist_json(expression), "{expression}");
    }
    let (status, body) = served.get("/api/dist?expr=4d6kh3y");
    assert!(status.contains("400"), "{status}");
    assert!(body.contains(r#""kind":"parse""#));
    // Attempts until a goal, by URL; a game's seats only by POST, and it says so.
    let (status, body) = served.get(
        "/api/goal?spec=pity(p%3D0.006,+soft%3D74,+rise%3D0.06,+cap%3D90)&until=hit&budget=90",
    );
    assert!(status.contains("200"), "{status}: {body}");
    let spec = "pity(p=0.006, soft=74, rise=0.06, cap=90)";
    assert_eq!(
        body,
        cli_json(&["goal", spec, "--until", "hit", "--budget", "90"])
    );
    let (status, body) = served.get("/api/seats?spec=tgm2&samples=10");
    assert!(status.contains("400"), "{status}");
    assert!(body.contains("POST /api/seats"), "{body}");
    // Requests addressed to another host name are refused (DNS rebinding).
    let mut stream = TcpStream::connect(&served.addr).expect("connect");
    write!(
        stream,
        "GET /dice HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    assert!(response.starts_with("HTTP/1.1 421"), "{response}");
}

#[test]
fn dist_draws_its_chart_as_svg_or_png() {
    let dir = std::env::temp_dir().join(format!("fairdice-chart-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg = dir.join("3d6.svg");
    let png = dir.join("3d6.png");
    for (path, measure) in [(&svg, "at_least"), (&png, "probability")] {
        let status = fairdice()
            .args(["dist", "3d6", "--chart"])
            .arg(path)
            .args(["--chart-measure", measure])
            .stdout(Stdio::null())
            .status()
            .expect("dist runs");
        assert!(status.success());
    }
    let text = std::fs::read_to_string(&svg).expect("svg written");
    assert!(text.starts_with("<svg") && text.contains("P(X ≥ x)"));
    let bytes = std::fs::read(&png).expect("png written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let bad = fairdice()
        .args(["dist", "3d6", "--chart"])
        .arg(dir.join("3d6.gif"))
        .output()
        .expect("dist runs");
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).expect("clean up");
}
