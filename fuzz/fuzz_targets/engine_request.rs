//! `omweso engine` (docs/engine-cli.md): arbitrary bytes as request lines.
//!
//! - The whole input, if UTF-8, is one request line to `engine_cli::respond`: the answer
//!   must be one line of JSON, an object holding either an `"error"` string or a `"moves"`,
//!   `"position"`, (`bestmove`) `"move"`, (`read_game`) `"games"` or (`write_game`)
//!   `"text"` key. Searches are capped at `SEARCH_NODES`
//!   nodes ([`Options::search_nodes_cap`]), so that a `"millis":60000` or `"level":8`
//!   input costs milliseconds, not a minute.
//! - The raw bytes (at most 64 KiB) are fed to `engine_cli::run` as a stream of request
//!   lines: it must succeed, write exactly one response line per input line (a last line
//!   without a newline counts), each a JSON object, and each the same as `respond` gives
//!   for that line (with its `\n` / `\r\n` stripped; invalid UTF-8 gets an error).
#![no_main]

use libfuzzer_sys::fuzz_target;
use omweso_engine::cli::{respond_with, run_with, Options};
use serde_json::Value;

const MAX_STREAM: usize = 64 * 1024;

const SEARCH_NODES: u64 = 2_000;

const OPTIONS: Options = Options {
    search_nodes_cap: Some(SEARCH_NODES),
};

fn check_response(request: &[u8], response: &str) {
    assert!(
        !response.contains('\n'),
        "the response to {:?} spans several lines: {response:?}",
        String::from_utf8_lossy(request)
    );
    let value: Value = serde_json::from_str(response).unwrap_or_else(|e| {
        panic!(
            "the response to {:?} is not JSON ({e}): {response:?}",
            String::from_utf8_lossy(request)
        )
    });
    let Value::Object(map) = &value else {
        panic!(
            "the response to {:?} is not a JSON object: {response:?}",
            String::from_utf8_lossy(request)
        );
    };
    let ok = match map.get("error") {
        Some(error) => error.is_string(),
        None => {
            ["moves", "position", "move", "games", "text"]
                .iter()
                .any(|key| map.contains_key(*key))
        }
    };
    assert!(
        ok,
        "the response to {:?} has neither an \"error\" string nor \"moves\"/\"position\"/\"move\": {response:?}",
        String::from_utf8_lossy(request)
    );
}

fuzz_target!(|data: &[u8]| {
    if let Ok(line) = std::str::from_utf8(data) {
        let response = respond_with(line, &OPTIONS);
        check_response(data, &response);
    }

    let input = &data[..data.len().min(MAX_STREAM)];
    let mut output = Vec::new();
    run_with(input, &mut output, &OPTIONS).expect("run over an in-memory stream cannot fail");
    let requests: Vec<&[u8]> = input.split_inclusive(|&b| b == b'\n').collect();
    let text = String::from_utf8(output).expect("the engine writes UTF-8");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "the last response line has no newline: {text:?}"
    );
    let responses: Vec<&str> = text.lines().collect();
    assert_eq!(
        responses.len(),
        requests.len(),
        "{} input lines but {} response lines; input {:?}, output {text:?}",
        requests.len(),
        responses.len(),
        String::from_utf8_lossy(input)
    );
    for (request, response) in requests.iter().zip(&responses) {
        check_response(request, response);
        let stripped = request.strip_suffix(b"\n").unwrap_or(request);
        if let Ok(line) = std::str::from_utf8(stripped) {
            let line = line.trim_end_matches(['\n', '\r']);
            assert_eq!(
                *response,
                respond_with(line, &OPTIONS),
                "run and respond answer {line:?} differently"
            );
        }
    }
});
