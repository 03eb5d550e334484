/*
 * The web book's search ranking (_config.yml, html_search_scorer; Sphinx puts it before its
 * own search code). A page whose titles hold the word searched for comes before an entry of
 * the API reference whose name holds it: with Sphinx's defaults an API entry scored 11 + 5
 * against 15 for the title, so searching "L5" listed an API function above section 5.6.
 * Everything else is Sphinx's default.
 */
var Scorer = {
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: {
    0: 3,
    1: 0,
    2: -5,
  },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};
