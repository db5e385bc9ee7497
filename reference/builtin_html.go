package toolnexus

import (
	"html"
	"regexp"
	"strings"
)

// htmlToText turns an HTML page into plain text or a modest markdown. It is a tag scanner,
// not a parser, and deliberately small and deterministic:
//   - comments and the contents of head, script, style, noscript and template are dropped;
//   - block elements (p, div, lists, tables, headings, ...) become paragraph breaks, br a
//     line break, and runs of whitespace inside text collapse to one space;
//   - entities are decoded;
//   - markdown adds "#"-headings, "- " list items, "---" for hr and [text](href) links
//     (href as written); text keeps only the words.
//
// Blank lines are squeezed to one, and lines and the whole are trimmed.
func htmlToText(doc string, markdown bool) string {
	doc = htmlDropRe.ReplaceAllString(doc, " ")
	var b strings.Builder
	var links []string // hrefs of the open <a> elements, "" for one without
	last := 0
	for _, m := range htmlTagRe.FindAllStringSubmatchIndex(doc, -1) {
		b.WriteString(htmlSpaceRe.ReplaceAllString(html.UnescapeString(doc[last:m[0]]), " "))
		last = m[1]
		if m[2] < 0 { // a declaration or processing instruction
			continue
		}
		closing := m[3] > m[2]
		name := strings.ToLower(doc[m[4]:m[5]])
		attrs := doc[m[6]:m[7]]
		b.WriteString(htmlTagText(name, attrs, closing, markdown, &links))
	}
	b.WriteString(htmlSpaceRe.ReplaceAllString(html.UnescapeString(doc[last:]), " "))
	return tidyText(b.String(), markdown)
}

var (
	htmlDropRe = regexp.MustCompile(`(?is)<!--.*?-->|<head\b.*?</head\s*>|<script\b.*?</script\s*>|<style\b.*?</style\s*>|<noscript\b.*?</noscript\s*>|<template\b.*?</template\s*>`)
	// Group 1 is "/" for an end tag, 2 the name, 3 the attributes; a <!...> or <?...?>
	// matches without them.
	htmlTagRe   = regexp.MustCompile(`(?s)<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>|<[!?][^>]*>`)
	htmlHrefRe  = regexp.MustCompile(`(?is)\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))`)
	htmlSpaceRe = regexp.MustCompile(`[ \t\r\n\f]+`)
	blankRunRe  = regexp.MustCompile(`\n{3,}`)
	linkOpenRe  = regexp.MustCompile(`\[ +`)
	linkCloseRe = regexp.MustCompile(` +\]\(`)
	spaceRunRe  = regexp.MustCompile(`  +`)
)

var htmlBlockTags = map[string]bool{
	"p": true, "div": true, "section": true, "article": true, "main": true, "header": true,
	"footer": true, "nav": true, "aside": true, "ul": true, "ol": true, "dl": true, "dt": true,
	"dd": true, "table": true, "thead": true, "tbody": true, "blockquote": true, "pre": true,
	"form": true, "figure": true, "figcaption": true, "address": true, "body": true, "html": true,
}

// htmlTagText is what one tag contributes to the output.
func htmlTagText(name, attrs string, closing, markdown bool, links *[]string) string {
	switch {
	case name == "br":
		return "\n"
	case name == "hr":
		if markdown {
			return "\n\n---\n\n"
		}
		return "\n\n"
	case len(name) == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6':
		if markdown && !closing {
			return "\n\n" + strings.Repeat("#", int(name[1]-'0')) + " "
		}
		return "\n\n"
	case name == "li" || name == "tr" || name == "td" || name == "th":
		// Items and rows start a line, cells are set apart by a space; their ends add nothing.
		switch {
		case closing:
			return ""
		case name == "li" && markdown:
			return "\n- "
		case name == "td" || name == "th":
			return " "
		}
		return "\n"
	case name == "a" && markdown:
		if !closing {
			href := ""
			if h := htmlHrefRe.FindStringSubmatch(attrs); h != nil {
				href = html.UnescapeString(h[1] + h[2] + h[3])
			}
			*links = append(*links, href)
			if href == "" {
				return ""
			}
			return "["
		}
		if n := len(*links); n > 0 {
			href := (*links)[n-1]
			*links = (*links)[:n-1]
			if href != "" {
				return "](" + href + ")"
			}
		}
		return ""
	case htmlBlockTags[name]:
		return "\n\n"
	}
	return ""
}

// tidyText trims every line and squeezes its space runs (tags add spaces beside the
// text's own), squeezes blank runs to one blank line and trims the whole.
func tidyText(s string, markdown bool) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = spaceRunRe.ReplaceAllString(strings.TrimSpace(l), " ")
	}
	s = blankRunRe.ReplaceAllString(strings.Join(lines, "\n"), "\n\n")
	if markdown {
		s = linkCloseRe.ReplaceAllString(linkOpenRe.ReplaceAllString(s, "["), "](")
	}
	return strings.TrimSpace(s)
}
