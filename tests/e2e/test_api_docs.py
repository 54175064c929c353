"""The browsable API at /docs in a real browser: Swagger UI shows every REST operation of the
server's OpenAPI document, from the server's own files alone (no request leaves it), with no
page error, and links the AsyncAPI document."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect

from .conftest import open_context


def test_the_api_page_shows_every_operation_from_the_servers_own_files(
        browser: Browser, web: str) -> None:
    document = httpx.get(f"{web}/openapi.json", timeout=10).json()
    operations = sum(len(methods) for methods in document["paths"].values())
    context = open_context(browser, "docs-reader")
    page = context.new_page()
    errors: list[str] = []
    elsewhere: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: None if r.url.startswith(web) else elsewhere.append(r.url))
    response = page.goto(f"{web}/docs")
    assert response is not None and response.status == 200
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    expect(page.locator(".opblock")).to_have_count(operations)
    expect(page.locator(".info .title")).to_contain_text(document["info"]["title"])
    assert page.locator("a[href='/asyncapi.json']").count() == 1
    page.locator(".opblock-summary-path", has_text="/api/v1/games").first.click()
    expect(page.locator(".opblock-body").first).to_be_visible()
    assert errors == [] and elsewhere == []
    context.close()
