package org.caseassignments.testkit;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The metric names a PromQL expression selects, read with a small tokenizer (no PromQL parser is published
 * on Maven Central). It knows what is not a metric name: label matchers ({@code {…}}), ranges and subqueries
 * ({@code […]}), string and number literals, durations, functions and aggregations (a name followed by
 * {@code (}, or an aggregation followed by its {@code by} or {@code without} clause), the label lists of {@code by}, {@code without}, {@code on}, {@code ignoring},
 * {@code group_left} and {@code group_right}, keywords and binary operators, and Grafana's
 * {@code $variables}. Anything else it cannot read is an {@link IllegalArgumentException} naming the
 * position: an expression this check cannot read does not pass.
 */
public final class PromQl {

    private static final Set<String> LABEL_LIST_KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "atan2", "inf",
            "nan", "start", "end");
    private static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "group", "stddev", "stdvar",
            "count", "count_values", "bottomk", "topk", "quantile", "limitk", "limit_ratio");
    private static final String OPERATORS = "+-*/%^=!<>,";

    private PromQl() {
    }

    /** The metric names {@code expression} selects, in order of first appearance. */
    public static Set<String> metricNames(String expression) {
        Set<String> names = new LinkedHashSet<>();
        Deque<Character> open = new ArrayDeque<>();
        int i = 0;
        int n = expression.length();
        while (i < n) {
            char c = expression.charAt(i);
            if (Character.isWhitespace(c) || OPERATORS.indexOf(c) >= 0) {
                i++;
            } else if (c == '"' || c == '\'' || c == '`') {
                i = skipString(expression, i);
            } else if (c == '{') {
                i = skipBlock(expression, i, '{', '}');
            } else if (c == '[') {
                i = skipBlock(expression, i, '[', ']');
            } else if (c == '(') {
                open.push(c);
                i++;
            } else if (c == ')') {
                if (open.isEmpty()) {
                    throw new IllegalArgumentException("unbalanced ')' at " + i + " in: " + expression);
                }
                open.pop();
                i++;
            } else if (Character.isDigit(c) || c == '.') {
                i = skipWhile(expression, i, PromQl::isNumberPart);
            } else if (c == '$') {
                i = i + 1 < n && expression.charAt(i + 1) == '{' ? skipBlock(expression, i + 1, '{', '}')
                        : skipWhile(expression, i + 1, PromQl::isNamePart);
            } else if (isNameStart(c)) {
                int end = skipWhile(expression, i, PromQl::isNamePart);
                String name = expression.substring(i, end);
                int next = skipWhile(expression, end, Character::isWhitespace);
                boolean call = next < n && expression.charAt(next) == '('
                        || AGGREGATIONS.contains(name) && startsWithModifier(expression, next);
                if (LABEL_LIST_KEYWORDS.contains(name)) {
                    i = call ? skipBlock(expression, next, '(', ')') : end;
                } else if (call || KEYWORDS.contains(name)) {
                    i = end;
                } else {
                    names.add(name);
                    i = end;
                }
            } else {
                throw new IllegalArgumentException("unexpected '" + c + "' at " + i + " in: " + expression);
            }
        }
        if (!open.isEmpty()) {
            throw new IllegalArgumentException("unclosed '(' in: " + expression);
        }
        return names;
    }

    /** Whether an aggregation's {@code by} or {@code without} clause starts at {@code i}, before its parenthesis. */
    private static boolean startsWithModifier(String s, int i) {
        int end = skipWhile(s, i, PromQl::isNamePart);
        String word = s.substring(i, end);
        return word.equals("by") || word.equals("without");
    }

    private static int skipString(String s, int start) {
        char quote = s.charAt(start);
        for (int i = start + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && quote != '`') {
                i++;
            } else if (c == quote) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException("unclosed string at " + start + " in: " + s);
    }

    /** From an opening delimiter to just after its matching closing one, strings inside skipped whole. */
    private static int skipBlock(String s, int start, char opening, char closing) {
        int depth = 0;
        int i = start;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '"' || c == '\'' || c == '`') {
                i = skipString(s, i);
                continue;
            }
            if (c == opening) {
                depth++;
            } else if (c == closing && --depth == 0) {
                return i + 1;
            }
            i++;
        }
        throw new IllegalArgumentException("unclosed '" + opening + "' at " + start + " in: " + s);
    }

    private static int skipWhile(String s, int start, CharTest test) {
        int i = start;
        while (i < s.length() && test.matches(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    }

    private static boolean isNamePart(char c) {
        return isNameStart(c) || (c >= '0' && c <= '9');
    }

    /** Numbers, hexadecimal numbers, exponents and durations ({@code 1.5e3}, {@code 0x1f}, {@code 1h30m}). */
    private static boolean isNumberPart(char c) {
        return isNamePart(c) || c == '.';
    }

    @FunctionalInterface
    private interface CharTest {
        boolean matches(char c);
    }
}
