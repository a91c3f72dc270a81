"""The words ``graph.mapping.organizations`` needs to tell where one maker's name ends.

A comma in a makers text usually separates two organisations (``New York University,
Cohere and Anthropic``), but some names hold one: a campus or country after an institution
(``The Chinese University of Hong Kong, Shenzhen``, ``University of California, Berkeley``)
or a company's legal form (``Acme, Inc.``). No rule on the words alone tells the city
``Shenzhen`` from the company ``Cohere``, so the places are listed: a place not listed here
makes an organisation of its own, which the verbatim ``bench:publisherText`` still shows.
Add a place here when a record needs it; leave out a city that also names a university on its
own (Cambridge, Oxford, Stanford: ``Harvard University, Stanford and MIT`` is three makers).
Every entry is compared in lower case.
"""

PLACES = frozenset(place.strip() for place in """
    abu dhabi; adelaide; amherst; ann arbor; atlanta; austin; bangalore; barcelona; beijing;
    bengaluru; berkeley; berlin; bombay; boston; boulder; brisbane; buffalo; cairo;
    chapel hill; chicago; college park; davis; delhi; dubai; edinburgh; guangzhou; hangzhou;
    hong kong; houston; hyderabad; irvine; ithaca; jerusalem; kanpur; kharagpur; kyoto; lagos;
    london; los angeles; madison; madras; manchester; melbourne; merced; montreal; moscow;
    mumbai; munich; nairobi; nanjing; new brunswick; new york; paris; pittsburgh;
    quebec; riverside; san diego; san francisco; santa barbara; santa cruz; seattle; seoul;
    shanghai; shenzhen; singapore; st. louis; sydney; taipei; tel aviv; tianjin;
    tokyo; toronto; tsukuba; urbana-champaign; vancouver; vienna; wuhan; zurich;
    alabama; arizona; california; colorado; florida; georgia; illinois; indiana; iowa;
    maryland; massachusetts; michigan; minnesota; new jersey; north carolina; ohio; oregon;
    pennsylvania; texas; utah; virginia; washington; wisconsin;
    australia; brazil; canada; china; egypt; england; france; germany; india; israel; italy;
    japan; kenya; korea; south korea; mexico; netherlands; nigeria; scotland; south africa;
    spain; sweden; switzerland; taiwan; uk; united kingdom; usa; united states
""".split(";"))
"""Cities, campuses, states and countries that follow an institution's name after a comma."""

INSTITUTION_WORDS = frozenset(
    "academy centre center college conservatory hospital institute institution laboratories "
    "laboratory polytechnic school universidad universidade universit\u00e9 universit\u00e4t "
    "university".split()
)
"""Words that make a name an institution, the kind a campus or country can follow."""

LEGAL_FORMS = frozenset(
    "ag co co. corp corp. corporation gmbh inc inc. l.l.c. limited llc llp lp ltd ltd. plc "
    "pty s.a. s.a.s. sa".split()
)
"""A company's legal form, which a comma may part from its name (``Acme, Inc.``)."""

FIELD_WORDS = frozenset(
    "agriculture arts business communication computer computing design development economics "
    "education engineering finance health humanities informatics information innovation law "
    "letters management mathematics medicine music pharmacy physics policy research science "
    "sciences statistics technology".split()
)
"""Fields of study: after " and " they continue a name (``University of Science and
Technology of China``) rather than start another."""
