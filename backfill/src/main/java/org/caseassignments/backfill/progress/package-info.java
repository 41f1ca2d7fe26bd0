/**
 * Progress reporting on the terminal: a redrawn bar with rows done, rate and ETA when the output is
 * a terminal, plain periodic lines otherwise (logs, CI), or nothing.
 */
package org.caseassignments.backfill.progress;
