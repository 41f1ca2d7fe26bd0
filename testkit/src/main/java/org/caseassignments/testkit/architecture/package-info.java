/**
 * Fitness rules more than one module applies, over its compiled classes: who may lock or write the tables of the lock
 * order ({@link org.caseassignments.testkit.architecture.LockingSql}), read from each class's string constants
 * ({@link org.caseassignments.testkit.architecture.ClassConstants}).
 */
package org.caseassignments.testkit.architecture;
