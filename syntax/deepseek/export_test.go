package deepseek

// Format is the package's Format, for its tests (the family's golden cases).
var Format = format
