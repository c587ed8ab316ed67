-- Until 2accc81 a robot sender's guest account was whatever account held the name
-- robot_<first 20 hex of sha256(robot id ":" sender id)>, and people could register such a name first:
-- their account then received that sender's conversations. Those mappings are dropped; the sender's
-- next message makes a real guest (its name now has a ":", which no form takes). A guest, or a person
-- who bound their account with a bind code, keeps theirs.
DELETE FROM "robot_users" ru
USING "users" u
WHERE u."id" = ru."user_id"
  AND u."password_hash" <> 'robot-guest:no-sign-in'
  AND u."username" = 'robot_' || substr(encode(sha256(convert_to(ru."robot_id" || ':' || ru."external_user_id", 'UTF8')), 'hex'), 1, 20);
