// Package goal is goals: an objective the agent keeps working on over
// several rounds (turns it starts itself) until it is complete, blocked,
// paused by the user, or the round cap ends it.
//
// Authority is the point. Only the user sets the objective and the cap:
// directly (ptc run --goal, /goal) or through the agent in a turn the
// user started in the root session. In a goal round, and in any
// subagent, create_goal and update_goal's edit, pause and resume are
// refused, so an agent can never extend its own cap or wake a paused
// goal; it may only report the goal complete, or blocked from round 3.
// update_goal compares the revision it is given with the current one
// before it changes anything.
//
//	goal/create{goal}            the whole goal after the change, who
//	goal/update{goal, action}    asked and in which kind of turn
//	goal/round{round, max}       right before a round's turn/start
//
// Keeper holds one session's goal, restored from those events on resume,
// and tells the turns apart by watching goal/round and turn/start. The
// goal tools are defined in package toolbox, over Keeper.Change.
package goal
