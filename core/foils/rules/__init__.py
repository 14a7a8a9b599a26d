"""The edit rules (PN, RS, US, AR, HS) and the WordNet lexicon and sense choice they use."""
