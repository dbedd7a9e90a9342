// The package ships no types: one function, the Porter2 (English Snowball) stem of a lowercase word.
declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}
