//! The one HTML page (`web/index.html`), as sent for each kind of route: its `/static/` URLs
//! pointed at the current version (`/static/v/<version>/…`), and hints for what that route
//! needs, so that the browser fetches them all at once instead of one import level per
//! round trip: `<link rel="modulepreload">` for every module the route's page loads before
//! it runs, and the style sheets only that route uses.
//!
//! The routes' modules mirror `ROUTES` in `web/app.js`; a route missing here (a new one)
//! still works, preloading only the shared modules.

use super::site::Site;

/// A kind of page: the paths it serves, the module `web/app.js` mounts it from and the
/// style sheets only it needs (besides the ones `index.html` links for every page).
struct Route {
    matches: fn(&str) -> bool,
    module: &'static str,
    styles: &'static [&'static str],
}

const ROUTES: &[Route] = &[
    Route {
        matches: |path| path == "/",
        module: "lobby/lobby.js",
        styles: &[],
    },
    Route {
        matches: |path| path.starts_with("/g/"),
        module: "game/gameview.js",
        styles: &["archive/archive.css"],
    },
    Route {
        matches: |path| path == "/games" || path == "/games/",
        module: "archive/archive.js",
        styles: &["archive/archive.css"],
    },
    // A tournament's own pages (`/t/<id>/<page>`) before the tournament page's `/t/`.
    Route {
        matches: |path| tournament_page(path) == Some("screen"),
        module: "hall/screen.js",
        styles: &["hall/screen.css"],
    },
    Route {
        matches: |path| tournament_page(path) == Some("print"),
        module: "print/print.js",
        styles: &["print/print.css"],
    },
    Route {
        // A board table's sheet on a phone: `/t/<id>/sheet/<round>/<table>`.
        matches: |path| {
            path.strip_prefix("/t/")
                .and_then(|rest| rest.split_once('/'))
                .is_some_and(|(_, rest)| rest.starts_with("sheet/"))
        },
        module: "sheet/sheet.js",
        styles: &["sheet/sheet.css"],
    },
    Route {
        // The relay's page of a table played over the board (before the tournament's).
        matches: |path| path.starts_with("/t/") && path.contains("/relay/"),
        module: "relay/relay.js",
        styles: &["relay/relay.css"],
    },
    Route {
        matches: |path| path.starts_with("/t/"),
        module: "tournament/tournament.js",
        // The console and the creation form: only a tournament's page shows them.
        styles: &["director.css"],
    },
    Route {
        matches: |path| path == "/howto" || path.starts_with("/howto/"),
        module: "howto/howto.js",
        styles: &[],
    },
    Route {
        matches: |path| path == "/analysis" || path == "/analysis/",
        module: "analysis/analysis.js",
        styles: &[],
    },
    Route {
        matches: |path| path == "/account" || path == "/account/",
        module: "account/account.js",
        styles: &[],
    },
    Route {
        matches: |path| path == "/link" || path == "/link/",
        module: "account/link.js",
        styles: &[],
    },
    Route {
        matches: |path| path == "/me" || path == "/me/",
        module: "people/mygames.js",
        styles: &[],
    },
    Route {
        matches: |path| path.starts_with("/@/"),
        module: "people/player.js",
        styles: &["people/people.css"],
    },
    Route {
        matches: |path| path == "/leaderboards" || path.starts_with("/leaderboards/"),
        module: "leaderboard/leaderboard.js",
        styles: &["people/people.css"],
    },
];

/// The page of a tournament's path `/t/<id>/<page>` (`screen`, `print`; a trailing slash
/// allowed), or None for `/t/<id>` itself and anything longer.
fn tournament_page(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/t/")?;
    let mut parts = rest.trim_end_matches('/').split('/');
    let (_id, page) = (parts.next()?, parts.next()?);
    parts.next().is_none().then_some(page)
}

/// The page's entry module: it is in `index.html` already, and imports the shared modules.
const ENTRY: &str = "app.js";

/// The page for the request path `path`, from the template `index.html`.
#[must_use]
pub fn render(template: &str, site: &Site, path: &str) -> String {
    let prefix = format!("/static/v/{}/", site.version);
    let route = ROUTES.iter().find(|route| (route.matches)(path));
    let mut hints = String::new();
    for style in route.map_or(&[][..], |route| route.styles) {
        hints.push_str(&format!(
            "  <link rel=\"stylesheet\" href=\"{prefix}{}\">\n",
            attribute(style)
        ));
    }
    let mut entries = vec![ENTRY];
    entries.extend(route.map(|route| route.module));
    for module in site.closure(&entries).iter().filter(|&m| m != ENTRY) {
        hints.push_str(&format!(
            "  <link rel=\"modulepreload\" href=\"{prefix}{}\">\n",
            attribute(module)
        ));
    }
    let html = template
        .replace("\"/static/", &format!("\"{prefix}"))
        .replace("'/static/", &format!("'{prefix}"));
    match html.find("</head>") {
        Some(at) => format!("{}{hints}{}", &html[..at], &html[at..]),
        None => html,
    }
}

/// `text` safe inside a double-quoted HTML attribute.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = "<head>\n  <link rel=\"stylesheet\" href=\"/static/style.css\">\n  \
        <script type=\"module\" src=\"/static/app.js\"></script>\n</head>\n<body></body>";

    fn site() -> Site {
        Site::for_tests(&[
            ("app.js", &["core/ui.js"]),
            ("core/ui.js", &[]),
            ("lobby/lobby.js", &["core/api.js", "core/ui.js"]),
            ("core/api.js", &[]),
            ("game/gameview.js", &["board/board.js", "core/ui.js"]),
            ("board/board.js", &[]),
            (
                "tournament/tournament.js",
                &["core/api.js", "director/console.js"],
            ),
            ("director/console.js", &[]),
            ("analysis/analysis.js", &["board/board.js"]),
            ("account/account.js", &["core/api.js", "account/forms.js"]),
            ("account/forms.js", &[]),
            ("people/player.js", &["core/api.js"]),
            ("hall/screen.js", &["core/ui.js", "tournament/miniboard.js"]),
            ("tournament/miniboard.js", &[]),
            ("print/print.js", &["core/api.js"]),
        ])
    }

    #[test]
    fn a_tournaments_hall_screen_and_print_view_preload_their_own_modules_not_the_tournament_page()
    {
        let v = "/static/v/0123456789abcdef";
        let hints = |path: &str| {
            let html = render(TEMPLATE, &site(), path);
            let at = html
                .find("</script>\n")
                .map_or(0, |at| at + "</script>\n".len());
            html[at..html.find("</head>").unwrap_or(html.len())].to_owned()
        };
        let style = |s: &str| format!("  <link rel=\"stylesheet\" href=\"{v}/{s}\">\n");
        let preload = |m: &str| format!("  <link rel=\"modulepreload\" href=\"{v}/{m}\">\n");
        let screen = [
            style("hall/screen.css"),
            preload("hall/screen.js"),
            preload("core/ui.js"),
            preload("tournament/miniboard.js"),
        ]
        .concat();
        assert_eq!(hints("/t/01ab/screen"), screen);
        assert_eq!(hints("/t/01ab/screen/"), screen);
        assert_eq!(
            hints("/t/01ab/print"),
            [
                style("print/print.css"),
                preload("print/print.js"),
                preload("core/ui.js"),
                preload("core/api.js"),
            ]
            .concat()
        );
        // The tournament's own page, and a longer path, are the tournament page's.
        for path in ["/t/01ab", "/t/01ab/", "/t/01ab/screen/more"] {
            assert!(
                hints(path).contains("tournament/tournament.js"),
                "{path}: {}",
                hints(path)
            );
        }
    }

    #[test]
    fn each_route_preloads_its_modules_at_the_version() {
        let v = "/static/v/0123456789abcdef";
        let expect = |hints: &str| {
            format!(
                "<head>\n  <link rel=\"stylesheet\" href=\"{v}/style.css\">\n  \
                 <script type=\"module\" src=\"{v}/app.js\"></script>\n{hints}</head>\n<body></body>"
            )
        };
        let preload = |m: &str| format!("  <link rel=\"modulepreload\" href=\"{v}/{m}\">\n");
        assert_eq!(
            render(TEMPLATE, &site(), "/"),
            expect(
                &[
                    preload("lobby/lobby.js"),
                    preload("core/ui.js"),
                    preload("core/api.js")
                ]
                .concat()
            )
        );
        assert_eq!(
            render(TEMPLATE, &site(), "/g/01a2"),
            expect(
                &[
                    // A finished game's panel (archive/finishedgame.js) is styled there.
                    format!("  <link rel=\"stylesheet\" href=\"{v}/archive/archive.css\">\n"),
                    preload("game/gameview.js"),
                    preload("core/ui.js"),
                    preload("board/board.js")
                ]
                .concat()
            )
        );
        assert_eq!(
            render(TEMPLATE, &site(), "/t/new"),
            expect(
                &[
                    format!("  <link rel=\"stylesheet\" href=\"{v}/director.css\">\n"),
                    preload("tournament/tournament.js"),
                    preload("core/ui.js"),
                    preload("core/api.js"),
                    preload("director/console.js"),
                ]
                .concat()
            )
        );
        assert_eq!(
            render(TEMPLATE, &site(), "/analysis"),
            expect(
                &[
                    preload("analysis/analysis.js"),
                    preload("core/ui.js"),
                    preload("board/board.js")
                ]
                .concat()
            )
        );
        assert_eq!(
            render(TEMPLATE, &site(), "/account"),
            expect(
                &[
                    preload("account/account.js"),
                    preload("core/ui.js"),
                    preload("core/api.js"),
                    preload("account/forms.js")
                ]
                .concat()
            )
        );
        assert_eq!(
            render(TEMPLATE, &site(), "/@/kato_k"),
            expect(
                &[
                    // The ratings, their charts and the results (people/ratings.js).
                    format!("  <link rel=\"stylesheet\" href=\"{v}/people/people.css\">\n"),
                    preload("people/player.js"),
                    preload("core/ui.js"),
                    preload("core/api.js")
                ]
                .concat()
            )
        );
        // A route this table does not know: the shared modules only.
        assert_eq!(
            render(TEMPLATE, &site(), "/nowhere"),
            expect(&preload("core/ui.js"))
        );
    }

    #[test]
    fn a_template_without_a_head_is_only_repointed() {
        assert_eq!(
            render("<img src=\"/static/icon.svg\">", &site(), "/"),
            "<img src=\"/static/v/0123456789abcdef/icon.svg\">"
        );
        assert_eq!(attribute("a\"<&"), "a&quot;&lt;&amp;");
    }
}
