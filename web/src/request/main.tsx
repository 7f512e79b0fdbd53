import { render } from 'preact';
import { App } from './app.js';
import { readPageData } from './page-data.js';
import '../common/styles.css';
import './request.css';

const root = document.getElementById('app');
if (root) render(<App data={readPageData()} />, root);
