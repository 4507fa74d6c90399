// Package registry holds the syntaxes toolparse knows, by name and alias.
//
// It follows database/sql's drivers and chroma's lexers: each syntax package
// exports a [syntax.Syntax] descriptor, the registry maps its name and aliases
// (in any letter case) to it, and callers look a syntax up by the name a user
// typed. [Default] holds the built-in syntaxes; [Register] adds your own to
// it, and [New] builds an independent registry from an explicit list (useful
// in tests, or to offer users only some syntaxes).
package registry
