package org.caseassignments.api.policy;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;

/**
 * What one type-checked condition reads and what it may cost, found by walking its AST (macros are
 * already expanded into comprehensions there). Reads are select chains rooted at the {@code resource}
 * or {@code claims} variable ({@code resource.attrs.admin_unit}, or the same with constant index
 * keys); a comprehension's own variables shadow them, except where the name is root-qualified
 * ({@code .resource}), which always names the global. Anything the service could not name as a field
 * is refused: the whole {@code resource} or {@code attrs} map, a computed key, a path below a scalar,
 * an unknown top-level field or claim.
 *
 * <p>The static cost is the number of AST nodes, those in a comprehension's loop counted
 * {@code maxIterations} times: an upper bound of the evaluation steps at the iteration limit. A loop
 * inside a loop, or a membership test against a list that is not a literal inside a loop, is refused
 * outright: its cost is the product of two input sizes.
 */
final class ConditionAnalysis {

    static final String RESOURCE = "resource";
    static final String CLAIMS = "claims";
    private static final String INDEX = "_[_]";
    private static final String IN = "@in";

    /**
     * @param resourceReads the resource fields read, in the order met
     * @param cost          the static cost estimate
     */
    record Result(Set<ResourceField> resourceReads, long cost) {
    }

    /** A condition reads something the service cannot name, or is too expensive by construction. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    private final Set<String> knownClaims;
    private final long maxIterations;
    private final Set<ResourceField> reads = new LinkedHashSet<>();
    private long cost;

    private ConditionAnalysis(Set<String> knownClaims, long maxIterations) {
        this.knownClaims = knownClaims;
        this.maxIterations = maxIterations;
    }

    static Result of(CelAbstractSyntaxTree ast, Set<String> knownClaims, long maxIterations) throws Refused {
        ConditionAnalysis analysis = new ConditionAnalysis(knownClaims, maxIterations);
        analysis.visit(ast.getExpr(), Set.of(), 1, false);
        return new Result(Set.copyOf(analysis.reads), analysis.cost);
    }

    private void visit(CelExpr expr, Set<String> locals, long weight, boolean inLoop) throws Refused {
        Optional<List<String>> path = path(expr, locals);
        if (path.isPresent()) {
            cost += weight * path.get().size();
            record(path.get());
            return;
        }
        cost += weight;
        switch (expr.getKind()) {
            case IDENT -> {
                Optional<String> global = global(expr.ident().name(), locals);
                if (global.isPresent()) {
                    throw new Refused("reads " + global.get() + " as a whole; name the field it needs ("
                            + global.get() + ".<field>)");
                }
            }
            case SELECT -> visit(expr.select().operand(), locals, weight, inLoop);
            case CALL -> {
                CelExpr.CelCall call = expr.call();
                if (inLoop && call.function().equals(IN) && call.args().size() == 2
                        && call.args().get(1).getKind() != CelExpr.ExprKind.Kind.LIST) {
                    throw new Refused("tests membership in a list that is not a literal inside an iteration; "
                            + "its cost grows with the product of two input sizes");
                }
                if (call.target().isPresent()) {
                    visit(call.target().get(), locals, weight, inLoop);
                }
                for (CelExpr arg : call.args()) {
                    visit(arg, locals, weight, inLoop);
                }
            }
            case LIST -> {
                for (CelExpr element : expr.list().elements()) {
                    visit(element, locals, weight, inLoop);
                }
            }
            case MAP -> {
                for (CelExpr.CelMap.Entry entry : expr.map().entries()) {
                    visit(entry.key(), locals, weight, inLoop);
                    visit(entry.value(), locals, weight, inLoop);
                }
            }
            case STRUCT -> {
                for (CelExpr.CelStruct.Entry entry : expr.struct().entries()) {
                    visit(entry.value(), locals, weight, inLoop);
                }
            }
            case COMPREHENSION -> comprehension(expr.comprehension(), locals, weight, inLoop);
            default -> {
                // constants and unset nodes read nothing
            }
        }
    }

    private void comprehension(CelExpr.CelComprehension loop, Set<String> locals, long weight, boolean inLoop)
            throws Refused {
        if (inLoop) {
            throw new Refused("iterates inside an iteration; its cost grows with the product of two input sizes");
        }
        visit(loop.iterRange(), locals, weight, false);
        visit(loop.accuInit(), locals, weight, false);
        Set<String> inner = new HashSet<>(locals);
        inner.add(loop.iterVar());
        if (!loop.iterVar2().isEmpty()) {
            inner.add(loop.iterVar2());
        }
        inner.add(loop.accuVar());
        visit(loop.loopCondition(), inner, weight * maxIterations, true);
        visit(loop.loopStep(), inner, weight * maxIterations, true);
        Set<String> afterLoop = new HashSet<>(locals);
        afterLoop.add(loop.accuVar());
        visit(loop.result(), afterLoop, weight, false);
    }

    /** {@code resource.attrs.x} or {@code resource['attrs']['x']}: the variable and the names selected, when it is one. */
    private static Optional<List<String>> path(CelExpr expr, Set<String> locals) {
        Deque<String> names = new ArrayDeque<>();
        CelExpr current = expr;
        while (true) {
            if (current.getKind() == CelExpr.ExprKind.Kind.SELECT) {
                names.addFirst(current.select().field());
                current = current.select().operand();
            } else if (isConstantIndex(current)) {
                names.addFirst(current.call().args().get(1).constant().stringValue());
                current = current.call().args().get(0);
            } else {
                break;
            }
        }
        if (names.isEmpty() || current.getKind() != CelExpr.ExprKind.Kind.IDENT) {
            return Optional.empty();
        }
        Optional<String> root = global(current.ident().name(), locals);
        if (root.isEmpty()) {
            return Optional.empty();
        }
        names.addFirst(root.get());
        return Optional.of(List.copyOf(names));
    }

    /**
     * {@code resource} or {@code claims} when the identifier names that global variable. A leading dot
     * names the root scope (CEL's name resolution): {@code .resource} is the global even inside a
     * comprehension whose variable is called {@code resource}, and the checker keeps the dot exactly
     * there (elsewhere it resolves the name to {@code resource}). Without the dot a comprehension's
     * variable of the same name shadows the global.
     */
    private static Optional<String> global(String identifier, Set<String> locals) {
        boolean rootQualified = identifier.startsWith(".");
        String name = rootQualified ? identifier.substring(1) : identifier;
        if (!rootQualified && locals.contains(name) || !(name.equals(RESOURCE) || name.equals(CLAIMS))) {
            return Optional.empty();
        }
        return Optional.of(name);
    }

    private static boolean isConstantIndex(CelExpr expr) {
        if (expr.getKind() != CelExpr.ExprKind.Kind.CALL) {
            return false;
        }
        CelExpr.CelCall call = expr.call();
        return call.function().equals(INDEX) && call.target().isEmpty() && call.args().size() == 2
                && call.args().get(1).getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && call.args().get(1).constant().getKind() == CelConstant.Kind.STRING_VALUE;
    }

    private void record(List<String> path) throws Refused {
        String shown = String.join(".", path);
        if (path.get(0).equals(CLAIMS)) {
            if (path.size() != 2 || !knownClaims.contains(path.get(1))) {
                throw new Refused("reads " + shown + ", which no caller carries (claims are " + knownClaims + ")");
            }
            return;
        }
        String field = path.get(1);
        if (field.equals(ResourceField.ATTRS)) {
            if (path.size() != 3) {
                throw new Refused("reads " + shown + (path.size() == 2
                        ? " as a whole; name the attribute it needs (resource.attrs.<key>)"
                        : ", below an attribute, which has no fields"));
            }
            reads.add(ResourceField.attribute(path.get(2)));
            return;
        }
        ResourceField topLevel = new ResourceField(field, false);
        if (!ResourceField.topLevelFields().contains(topLevel)) {
            throw new Refused("reads " + shown + ", which is not a resource field (fields are "
                    + ResourceField.topLevelFields().stream().map(ResourceField::path).toList() + " and attrs.<key>)");
        }
        if (path.size() != 2) {
            throw new Refused("reads " + shown + ", below " + topLevel + ", which has no fields");
        }
        reads.add(topLevel);
    }
}
