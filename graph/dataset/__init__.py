"""The built dataset as data: quads of rdflib terms (``quads``, ``terms``), the table of interned
term ids a build fills (``table``), its canonical order (``canonical``), and single terms to
and from pyoxigraph (``oxigraph``)."""
