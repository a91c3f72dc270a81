"""Static files and the wire (``web.assets``): every static address carries its file's
version and is cached for a year, a changed file gets a new address, text is compressed for
a client that accepts it (a download is not), and the icon answers at ``/favicon.ico``.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import brotli
import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient

from graph.settings import Settings
from graph.store.base import Store
from web import create_app
from web.assets import VERSION_DIGITS, StaticVersions

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
TEMPLATES = STATIC.parent / "templates"
HTML = {"Accept": "text/html"}
YEAR = "public, max-age=31536000, immutable"
PAGES = ["/", "/benchmark/mimic_rrs", "/sparql", "/search?q=mimic", "/no/such/page"]
"""A page of each template family that links static files, and an error page."""


@pytest.fixture(scope="module")
def app(seed_store: Store, settings: Settings) -> Flask:
    return create_app(settings, seed_store, {"TESTING": True})


@pytest.fixture()
def client(app: Flask) -> Iterator[FlaskClient]:
    yield app.test_client()


def static_links(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def version_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:VERSION_DIGITS]


def test_every_template_links_static_files_through_url_for() -> None:
    """The version comes with ``url_for``: a hand-written ``/static/`` address would lack it."""
    for template in TEMPLATES.rglob("*.html"):
        assert "/static/" not in template.read_text(encoding="utf-8"), template


@pytest.mark.parametrize("path", PAGES)
def test_each_static_link_carries_its_files_version_and_is_kept_a_year(
        client: FlaskClient, path: str) -> None:
    links = static_links(client.get(path, headers=HTML).get_data(as_text=True))
    assert any("benchgraph.css" in link for link in links) and any(
        "favicon.svg" in link for link in links)
    for link in links:
        name, _, version = link.removeprefix("/static/").partition("?v=")
        assert version == version_of(STATIC / name), link
        response = client.get(link)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == YEAR, link


@pytest.mark.parametrize("address", ["/static/benchgraph.css", "/static/benchgraph.css?v=0"])
def test_a_static_file_at_no_version_or_another_is_asked_for_again(
        client: FlaskClient, address: str) -> None:
    response = client.get(address)
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-cache"
    assert client.get(address, headers={"If-None-Match": response.headers["ETag"]}
                      ).status_code == 304


@pytest.fixture()
def scratch_file() -> Iterator[Path]:
    """A file of the app's static folder that lives as long as a test."""
    path = STATIC / f"test-{uuid.uuid4().hex}.css"
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)


def test_a_changed_file_gets_a_new_address(app: Flask, client: FlaskClient,
                                           scratch_file: Path) -> None:
    def address() -> str:
        with app.test_request_context():
            return url_for("static", filename=scratch_file.name)

    scratch_file.write_text("body { color: black }")
    before = address()
    scratch_file.write_text("body { color: white }")  # the same size
    after = address()
    assert before != after and after.endswith(f"?v={version_of(scratch_file)}")
    assert client.get(after).headers["Cache-Control"] == YEAR
    stale = client.get(before)  # a page cached from before the change
    assert stale.headers["Cache-Control"] == "no-cache" and b"white" in stale.get_data()


def test_a_missing_or_outside_file_has_no_version(tmp_path: Path) -> None:
    (tmp_path / "inside").mkdir()
    (tmp_path / "outside.css").write_text("x")
    versions = StaticVersions(str(tmp_path / "inside"))
    assert versions.of("missing.css") is None
    assert versions.of("../outside.css") is None


def test_the_editors_script_is_compressed_for_a_client_that_accepts_it(
        client: FlaskClient) -> None:
    script = STATIC / "vendor" / "yasgui" / "yasgui.min.js"
    address = f"/static/vendor/yasgui/yasgui.min.js?v={version_of(script)}"
    squeezed = client.get(address, headers={"Accept-Encoding": "br"})
    assert squeezed.headers["Content-Encoding"] == "br"
    body = squeezed.get_data()
    assert len(body) < script.stat().st_size / 2
    assert brotli.decompress(body) == script.read_bytes()
    assert "Accept-Encoding" in squeezed.vary
    plain = client.get(address)
    assert "Content-Encoding" not in plain.headers and plain.get_data() == script.read_bytes()


def test_a_page_is_gzipped_for_a_client_that_accepts_gzip(client: FlaskClient) -> None:
    page = client.get("/benchmark/mimic_rrs", headers={**HTML, "Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert b"<!doctype html>" in gzip.decompress(page.get_data())


def test_a_download_goes_as_it_is_stored(client: FlaskClient) -> None:
    dump = client.get("/dump.nt", headers={"Accept-Encoding": "gzip, br"})
    try:
        assert dump.status_code == 200 and "Content-Encoding" not in dump.headers
        assert dump.headers["Content-Length"] == str(len(dump.get_data()))
    finally:
        dump.close()


def test_the_icon_is_linked_and_answers_at_favicon_ico(client: FlaskClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
    assert icon.get_data() == (STATIC / "favicon.svg").read_bytes()
    assert icon.headers["Cache-Control"] == "public, max-age=86400"
    page = client.get("/", headers=HTML).get_data(as_text=True)
    assert re.search(r'<link rel="icon" type="image/svg\+xml" href="/static/favicon\.svg\?v=',
                     page)
