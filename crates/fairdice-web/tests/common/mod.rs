//! Driving the app's router in-process: a request in, status, headers and body out.

#![allow(dead_code)] // each test binary uses part of it

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use fairdice_web::{Config, Limits, router};
use http_body_util::BodyExt;
use tower::ServiceExt;

/// The app with the server's limits, save a time limit of a minute: test builds
/// are unoptimised and run side by side, and the time limit has tests of its own.
pub fn app() -> Router {
    app_with(test_limits())
}

/// The server's limits with a time limit of a minute.
pub fn test_limits() -> Limits {
    Limits {
        time_limit: Duration::from_secs(60),
        ..Limits::default()
    }
}

/// The app with `limits`, answering any host name.
pub fn app_with(limits: Limits) -> Router {
    router(Config {
        limits,
        allowed_hosts: None,
        site: None,
    })
}

/// The app with one computation slot and the time limit `limit`.
pub fn impatient_app(limit: Duration) -> Router {
    app_with(Limits {
        time_limit: limit,
        max_concurrent: 1,
        ..Limits::default()
    })
}

/// Percent-encodes a query value.
pub fn enc(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// A response's status, content type, headers and body.
pub struct Reply {
    pub status: StatusCode,
    pub content_type: String,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("utf-8 body")
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

/// Sends `request` through `app`.
pub async fn send(app: &Router, request: Request<Body>) -> Reply {
    let response = app.clone().oneshot(request).await.expect("infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes()
        .to_vec();
    Reply {
        status,
        content_type,
        headers,
        body,
    }
}

/// `GET uri` through `app`.
pub async fn get(app: &Router, uri: &str) -> Reply {
    send(app, Request::get(uri).body(Body::empty()).expect("request")).await
}
