// A name typed whole comes first in the site's search.
//
// The theme's search appends a wildcard to every word typed, so that `betainc` finds betaincc
// and betaincinv too, and lunr scores a word found through the wildcard as if it had been
// typed: a longer name, rarer in the pages, ranks above the one typed. Each word of the query
// that the page sends to the search worker is added to it once more, boosted and without the
// wildcard (lunr's `word^boost`), so that the entry whose name is that word (the search
// index's `name` field, docs/sitegen/search.py) comes first and the longer names follow.
//
// The query message is the theme's ({type: 2, data: query}, its SearchMessageType.QUERY); the
// search worker exists before this script runs, so the prototype's postMessage is wrapped.
(() => {
  const QUERY = 2;
  const EXACT_BOOST = 10;
  const NAME = /^[\p{L}\p{N}_.]+$/u; // the search splits it at dots and underscores itself

  const withExactWords = (query) => {
    const words = query.split(/\s+/).filter((term) => NAME.test(term));
    return [query, ...words.map((word) => `${word}^${EXACT_BOOST}`)].join(" ");
  };

  const postMessage = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...transfer) {
    if (message && message.type === QUERY && typeof message.data === "string") {
      message = { ...message, data: withExactWords(message.data) };
    }
    return postMessage.call(this, message, ...transfer);
  };
})();
