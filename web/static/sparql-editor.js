/*
 * benchgraph: the query editor of the /sparql page, on the vendored YASGUI (vendor/yasgui/).
 * This file is benchgraph's own code (MIT, as the project).
 *
 * Everything it needs comes from the page, which the server renders:
 *
 *   <link rel="stylesheet" href="{{ url_for('static', filename='vendor/yasgui/yasgui.min.css') }}">
 *   <link rel="stylesheet" href="{{ url_for('static', filename='sparql-editor.css') }}">
 *   <a href="/queries/NAME" data-sparql-example="NAME">Title</a>   (any number, anywhere)
 *   <div id="sparql-editor"></div>
 *   <script type="application/json" id="sparql-editor-config">{{ config | tojson }}</script>
 *   <script src="{{ url_for('static', filename='vendor/yasgui/yasgui.min.js') }}"></script>
 *   <script src="{{ url_for('static', filename='sparql-editor.js') }}"></script>
 *
 * with config = {
 *   "endpoint":  "/sparql",                           the only endpoint; resolved against the page
 *   "prefixes":  {"bench": "https://…/ontology#", …}, PREFIX lines of a new tab, CURIEs in results
 *   "examples":  {"NAME": {"title": "…", "query": "…"}, …},
 *   "pages":     {"exact": {IRI: PAGE, …},             where a result's IRI links on this site:
 *                 "under": [[NAMESPACE, PAGE], …]}    an IRI, else the first namespace holding it
 *   "terms":     ["https://…/ontology#Benchmark", …]  optional: class and property completion
 * }
 *
 * The settings below are the ones that keep the page from sending any request off the machine:
 * vendor/yasgui/README.md says, setting by setting, what YASGUI would contact otherwise.
 */
(function () {
  "use strict";

  function readConfig() {
    const tag = document.getElementById("sparql-editor-config");
    if (!tag) throw new Error("sparql-editor: no #sparql-editor-config script on the page");
    const config = JSON.parse(tag.textContent);
    if (typeof config.endpoint !== "string") throw new Error("sparql-editor: no endpoint");
    return {
      endpoint: new URL(config.endpoint, document.baseURI).href,
      prefixes: config.prefixes || {},
      examples: config.examples || {},
      pages: config.pages || { exact: {}, under: [] },
      terms: config.terms || [],
    };
  }

  /* The site writes an IRI as the CURIE of the longest namespace that holds it
   * (graph.namespace.curie); YASR's table takes the first prefix that fits, in the order of the
   * map it is given, so it gets the map longest namespace first. */
  function longestFirst(prefixes) {
    const entries = Object.entries(prefixes);
    entries.sort(([a, x], [b, y]) => y.length - x.length || a.localeCompare(b));
    return Object.fromEntries(entries);
  }

  function prefixLines(prefixes) {
    return Object.keys(prefixes)
      .sort()
      .map((label) => `PREFIX ${label}: <${prefixes[label]}>\n`)
      .join("");
  }

  /* Autocompletion that never leaves the page. YASQE registers four completers at load and
   * enables them all in Yasqe.defaults.autocompleters: "variables" and "prefixes" work locally
   * (4.6.2 completes prefixes from a list in the bundle), "class" and "property" ask LOV
   * (lov.linkeddata.es) on every keystroke in a class or predicate position. The list must be
   * replaced on Yasqe.defaults itself: a list passed in the config is merged index by index
   * with the default one (lodash merge), so a shorter list would keep the LOV completers. */
  function configureCompleters(Yasqe, settings) {
    const bundledPrefixes = Yasqe.Autocompleters.prefixes.get;
    Yasqe.forkAutocompleter(
      "prefixes",
      {
        name: "benchgraphPrefixes",
        persistenceId: null, // the list is built in memory at each load, never stored
        get: (yasqe) =>
          Promise.resolve(bundledPrefixes(yasqe)).then((bundled) => {
            const ours = Object.keys(settings.prefixes).map(
              (label) => `${label}: <${settings.prefixes[label]}>`
            );
            const taken = new Set(Object.keys(settings.prefixes));
            return ours.concat(bundled.filter((line) => !taken.has(line.split(":")[0]))).sort();
          }),
      },
      false
    );
    const names = ["variables", "benchgraphPrefixes"];
    if (settings.terms.length) {
      const local = (yasqe, token) =>
        settings.terms.filter((iri) => iri.startsWith(token.autocompletionString || ""));
      Yasqe.forkAutocompleter("class", { name: "benchgraphClass", get: local }, false);
      Yasqe.forkAutocompleter("property", { name: "benchgraphProperty", get: local }, false);
      names.push("benchgraphClass", "benchgraphProperty");
    }
    Yasqe.defaults.autocompleters = names;
  }

  /* Where the table links an IRI: the site's page for it, by the rules the server wrote into
   * config.pages (its web/links.py); null for any other IRI, which links to itself. */
  function pageOf(iri, pages) {
    if (Object.hasOwn(pages.exact, iri)) return pages.exact[iri];
    for (const [namespace, page] of pages.under) {
      if (iri.startsWith(namespace) && iri.length > namespace.length) {
        return page + iri.slice(namespace.length);
      }
    }
    return null;
  }

  /* YASGUI's markup, mended as it is drawn (each tab, each page of a table):
   * - the table links each IRI to the IRI itself and has no hook to change that: an IRI the
   *   site has a page for links there instead, so hovering, copying and clicking all agree;
   * - the table's page-size menu has no name ("Page size:" beside it is no label), and its
   *   column of row numbers no header;
   * - an editor's scrolling box cannot take the focus, so only moving the cursor through a
   *   long query scrolls it from the keyboard: the box joins the tab order, as axe-core asks;
   * - the add-tab button sits in the tab list, where ARIA allows tabs only; YASGUI's arrow
   *   keys already move to it as the list's last entry, and it takes the role of one. */
  function mendMarkup(root, pages) {
    const mends = {
      "a.iri": (anchor) => {
        const page = pageOf(anchor.getAttribute("href") || "", pages);
        if (page !== null) anchor.setAttribute("href", page);
      },
      "select.tableSizer": (menu) => menu.setAttribute("aria-label", "Page size"),
      "th:first-child .dt-column-title:empty": (title) => (title.textContent = "#"),
      ".CodeMirror-scroll": (box) => box.setAttribute("tabindex", "0"),
      ".tabsList .addTab": (button) => button.setAttribute("role", "tab"),
    };
    const mend = (element) => {
      for (const [selector, fix] of Object.entries(mends)) {
        if (element.matches(selector)) fix(element);
        element.querySelectorAll(selector).forEach(fix);
      }
    };
    new MutationObserver((changes) => {
      for (const change of changes) {
        for (const node of change.addedNodes) {
          if (node.nodeType === Node.ELEMENT_NODE) mend(node);
        }
      }
    }).observe(root, { childList: true, subtree: true });
  }

  /* The endpoint says in a header that the row limit cut an answer (TRUNCATED_HEADER in
   * web/sparql/__init__.py); YASR counts only the rows it got. The tab that asked says it in
   * words above its results, until its next answer. */
  const TRUNCATED = "Benchgraph-Truncated";

  function sayIfCut(yasqe, response) {
    const yasr = yasqe.rootEl.closest(".tabPanel").querySelector(".yasr");
    yasr.querySelector(".benchgraph-cut")?.remove();
    const limit = response instanceof Error ? null : response.headers.get(TRUNCATED);
    if (limit === null) return;
    const what = ["CONSTRUCT", "DESCRIBE"].includes(yasqe.getQueryType()) ? "triples" : "rows";
    const notice = document.createElement("p");
    notice.className = "benchgraph-cut";
    notice.setAttribute("role", "status");
    notice.textContent =
      `Cut at the row limit of ${Number(limit).toLocaleString("en")}: the query has more ` +
      `${what}. Narrow it, or page through it with LIMIT and OFFSET.`;
    yasr.insertBefore(notice, yasr.querySelector(".yasr_results"));
  }

  /* An error answer is the endpoint's one error shape, {"error": {"status", "title",
   * "message"}} (web/errors.py), whose message is written for people: the parser's reason with
   * its line and column, a refusal, a time limit. YASQE hands YASR the body as the error's
   * text, which YASR would show as it is; this renderer shows the title and the message. Any
   * other text (a proxy's page) is left to YASR. */
  function readableError(error) {
    let said;
    try {
      said = JSON.parse(error.text).error;
    } catch {
      return undefined;
    }
    if (!said || typeof said.message !== "string") return undefined;
    const box = document.createElement("div");
    box.className = "benchgraph-error";
    box.setAttribute("role", "alert");
    const title = document.createElement("p");
    title.className = "benchgraph-error-title";
    title.textContent = `${said.title || "Error"} (${said.status})`;
    const message = document.createElement("p");
    message.textContent = said.message;
    box.append(title, message);
    return box;
  }

  function endpointLabel(endpoint) {
    const label = document.createElement("span");
    label.className = "benchgraph-endpoint";
    label.textContent = endpoint;
    label.title = "Queries go to this endpoint only";
    return label;
  }

  function start() {
    const settings = readConfig();
    const Yasgui = window.Yasgui;
    configureCompleters(Yasgui.Yasqe, settings);
    // Every tab's YASR takes these (Tab.initYasr), after its check for a blocked HTTP endpoint.
    Yasgui.Yasr.defaults.errorRenderers = [readableError];
    const root = document.getElementById("sparql-editor");
    mendMarkup(root, settings.pages);
    const yasgui = new Yasgui(root, {
      requestConfig: {
        // A function is read again at every query and wins over the endpoint a tab has stored.
        endpoint: () => settings.endpoint,
        method: "POST",
      },
      // The catalogue offers dbpedia and Wikidata by default; the field itself is hidden by
      // sparql-editor.css and endpointInfo shows where queries go instead.
      endpointCatalogueOptions: { getData: () => [], keys: [] },
      endpointInfo: () => endpointLabel(settings.endpoint),
      copyEndpointOnNewTab: false,
      // The URL's #endpoint=… would be written into the shared request config, pin and all;
      // a shared link's query is read by openSharedQuery below instead.
      populateFromUrl: false,
      corsProxy: undefined,
      // Tabs are kept in localStorage, per endpoint, so another endpoint's tabs never return.
      persistenceId: "benchgraph:" + settings.endpoint,
      yasqe: {
        value: prefixLines(settings.prefixes) + "\nSELECT * WHERE {\n  ?s ?p ?o\n} LIMIT 10\n",
        prefixCcApi: null,
        createShortLink: undefined,
        screenReaderLabel: "SPARQL query", // CodeMirror's aria-label for its text field
      },
      yasr: { prefixes: longestFirst(settings.prefixes) },
    });
    // A tab's editor is made when the tab is first shown: each is watched from its first query
    // on (the tab's "query" comes before the request is sent).
    const watched = new WeakSet();
    yasgui.on("query", (_, tab) => {
      const yasqe = tab.getYasqe();
      if (!watched.has(yasqe)) yasqe.on("queryResponse", sayIfCut);
      watched.add(yasqe);
    });
    const openQuery = (name, query) => yasgui.addTab(true, { name, yasqe: { value: query } });
    wireExamples(yasgui, settings.examples, openQuery);
    openSharedQuery(openQuery);
    window.benchgraphSparqlEditor = yasgui; // for the page's tests and the curious
  }

  /* An example link opens its query in a tab of its own, and selects that tab when it is clicked
   * again. (addTab's avoidDuplicateTabs never finds it: a tab's stored endpoint is a string,
   * the pinned one a function.) Without JavaScript the link still leads to the query's page. */
  function wireExamples(yasgui, examples, openQuery) {
    const opened = {};
    document.querySelectorAll("[data-sparql-example]").forEach((link) => {
      const name = link.dataset.sparqlExample;
      const example = examples[name];
      if (!example) return;
      link.addEventListener("click", (event) => {
        event.preventDefault();
        if (opened[name] && yasgui.getTab(opened[name])) yasgui.selectTabId(opened[name]);
        else opened[name] = openQuery(example.title, example.query).getId();
      });
    });
  }

  /* The share button writes the tab into the URL's fragment (#query=…&endpoint=…&…). Only the
   * query and the tab's title are taken back from it: never an endpoint, header or argument. */
  function openSharedQuery(openQuery) {
    if (location.hash.length < 2) return;
    const params = new URLSearchParams(location.hash.slice(1));
    const query = params.get("query");
    if (query) openQuery(params.get("tabTitle") || "Shared query", query);
    history.replaceState(null, "", location.pathname + location.search);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
