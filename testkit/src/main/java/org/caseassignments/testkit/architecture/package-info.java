/**
 * Fitness rules more than one module applies, over its compiled classes: who may lock or write the tables of the lock
 * order ({@link org.caseassignments.testkit.architecture.LockingSql}), read from each class's string constants
 * ({@link org.caseassignments.testkit.architecture.ClassConstants}); and that store's packages stay store's
 * ({@link org.caseassignments.testkit.architecture.StoreBoundary}).
 */
package org.caseassignments.testkit.architecture;
