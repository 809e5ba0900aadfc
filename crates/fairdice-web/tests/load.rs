//! The server under load on loopback, bounded in count and time: cheap requests
//! stay quick while expensive ones saturate it, a hostile request does not stop
//! it, and slow or idle connections are closed.
//!
//! One test in its own binary, so nothing else in the test run shares its cores.

use std::net::SocketAddr;
use std::time::Duration;

use fairdice_web::{Config, Limits, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// Sends one request on a new connection and returns its status and body.
async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.expect("connects");
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("writes");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("reads");
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// Waits until the server closes `stream` (a read returns end of file or an
/// error), or `limit` passes; returns how long that took.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buffer = [0u8; 1024];
    loop {
        match tokio::time::timeout_at(started + limit, stream.read(&mut buffer)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cheap_requests_stay_quick_while_expensive_ones_saturate_the_server() {
    let limits = Limits {
        time_limit: Duration::from_secs(3),
        header_read_timeout: Duration::from_secs(1),
        max_connections: 64,
        ..Limits::default()
    };
    let config = Config {
        limits,
        ..Config::default()
    };
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), config)
        .await
        .expect("binds");
    let addr = server.local_addr().expect("an address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server.run_until(async {
        let _ = stopped.await;
    }));

    // Four clients keep expensive requests coming for the whole test: sums of
    // hundreds of dice (about a second each), a sum the time limit stops, and
    // Risk simulations.
    let busy_until = Instant::now() + Duration::from_secs(8);
    let mut load = Vec::new();
    for path in [
        "/api/dist?expr=400d6%2B400d6",
        "/api/dist?expr=700d6%2B700d6",
        "/api/risk?attacker=300&defender=300&simulate=200000&seed=1",
        "/api/dist?expr=500d8%2B400d6",
    ] {
        load.push(tokio::spawn(async move {
            let mut answered = 0;
            while Instant::now() < busy_until {
                let (status, _) = get(addr, path).await;
                assert!(
                    status == 200 || status == 422 || status == 503,
                    "{path}: {status}"
                );
                answered += 1;
            }
            answered
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;

    // Cheap requests meanwhile: every one answered, the slowest 1% under 100 ms.
    let mut latencies = Vec::new();
    for _ in 0..150 {
        let started = Instant::now();
        let (status, body) = get(addr, "/api/dist?expr=3d6").await;
        latencies.push(started.elapsed());
        assert_eq!(status, 200, "{body}");
        assert!(body.contains(r#""total": "216""#), "{body}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    latencies.sort();
    let p99 = latencies[latencies.len() * 99 / 100];
    let median = latencies[latencies.len() / 2];
    eprintln!("cheap requests under load: median {median:?}, p99 {p99:?}");
    assert!(p99 < Duration::from_millis(100), "p99 {p99:?}");

    // A hostile request is refused or answered quickly, and the server goes on.
    let started = Instant::now();
    let (status, _) = get(addr, "/api/dist?expr=65535d4!%3C6k0").await;
    assert!(status == 200 || status == 422, "{status}");
    assert!(started.elapsed() < Duration::from_secs(4));
    assert_eq!(get(addr, "/api/dist?expr=2d6").await.0, 200);

    // Slow clients: headers never finished, and a kept-alive connection left idle,
    // are closed after the header timeout (1 s), well before 3 s.
    let mut slow = Vec::new();
    for _ in 0..20 {
        let mut stream = TcpStream::connect(addr).await.expect("connects");
        stream
            .write_all(b"GET /api/dist?expr=3d6 HTTP/1.1\r\nHost: loc")
            .await
            .expect("writes");
        slow.push(stream);
    }
    let mut idle = TcpStream::connect(addr).await.expect("connects");
    idle.write_all(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .expect("writes");
    for stream in slow.iter_mut().chain(std::iter::once(&mut idle)) {
        let closed = closed_within(stream, Duration::from_secs(3)).await;
        assert!(closed.is_some(), "a slow connection stayed open");
    }

    // More idle connections than the cap: new requests are still answered once
    // the idle ones time out.
    let mut parked = Vec::new();
    for _ in 0..80 {
        parked.push(TcpStream::connect(addr).await.expect("connects"));
    }
    let started = Instant::now();
    let (status, _) = get(addr, "/api/dist?expr=3d6").await;
    assert_eq!(status, 200);
    assert!(started.elapsed() < Duration::from_secs(3));
    drop(parked);

    for client in load {
        assert!(client.await.expect("a load client") > 0);
    }
    let _ = stop.send(());
    serving.await.expect("the server task").expect("serves");
}
