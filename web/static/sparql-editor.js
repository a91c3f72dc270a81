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
 *   "prefixes":  {"bench": "https://…/ontology#", …}, PREFIX lines of a new tab, short IRIs in results
 *   "examples":  {"NAME": {"title": "…", "query": "…"}, …},
 *   "iriBase":   "https://w3id.org/benchgraph/",      data IRIs under it …
 *   "pageRoot":  "/",                                 … open the app's page: {iriBase}x -> {pageRoot}x
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
      iriBase: config.iriBase || null,
      pageRoot: new URL(config.pageRoot || "/", document.baseURI).href,
      terms: config.terms || [],
    };
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

  /* The results table links each IRI to the IRI itself. Data IRIs ({iriBase}x) are rewritten to
   * the app's own page ({pageRoot}x) as the table draws them, so hovering, copying and clicking
   * a link all give the local page; IRIs outside the base are left as they are. */
  function rewriteLinks(root, settings) {
    if (!settings.iriBase) return;
    const rewrite = (anchor) => {
      const href = anchor.getAttribute("href");
      if (href && href.startsWith(settings.iriBase)) {
        anchor.setAttribute("href", settings.pageRoot + href.slice(settings.iriBase.length));
      }
    };
    new MutationObserver((changes) => {
      for (const change of changes) {
        for (const node of change.addedNodes) {
          if (node.nodeType !== Node.ELEMENT_NODE) continue;
          if (node.matches("a.iri")) rewrite(node);
          node.querySelectorAll("a.iri").forEach(rewrite);
        }
      }
    }).observe(root, { childList: true, subtree: true });
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
    const root = document.getElementById("sparql-editor");
    rewriteLinks(root, settings);
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
      },
      yasr: { prefixes: settings.prefixes },
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
