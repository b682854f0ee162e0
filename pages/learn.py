"""Learn: the seeds' worked examples as a playground; edit the predictions, every score follows."""

import streamlit as st

from ui import learn, state

state.init_state()  # a first deep link to /learn must still be served through app.py
st.title("🎓 Learn")
learn.exercise_mode()  # ?exercise=SEED: the exercise, and the page stops there
sid, sc = learn.scenario()
edited = learn.predictions(sid, sc)
learn.text(edited)
learn.scores(edited)
learn.ladder_steps(edited)
learn.seed_numbers(edited)
learn.martino_pairs(edited)
learn.mafalda_matches(edited)
learn.alternatives(edited)
learn.per_label(edited)
learn.metric_cards()
