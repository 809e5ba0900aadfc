//! Driving the app's router in-process: a request in, status, headers and body out.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;

/// A response's status, content type and body.
pub struct Reply {
    pub status: StatusCode,
    pub content_type: String,
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

/// `GET uri` through `app`.
pub async fn get(app: &Router, uri: &str) -> Reply {
    let request = Request::get(uri).body(Body::empty()).expect("request");
    let response = app.clone().oneshot(request).await.expect("infallible");
    let status = response.status();
    let content_type = response
        .headers()
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
        body,
    }
}
