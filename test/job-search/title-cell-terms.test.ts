import assert from 'node:assert/strict';
import { titleCellQueryOf, titleCellTermsOf } from '../../src/job-search/title-cell-terms.js';

describe('title cell terms', () => {
  it('joins each distinct stem of the title with the cell', () => {
    assert.equal(
      titleCellTermsOf('Senior Software Engineers — Software Engineering', 187411),
      'seniorx187411 softwarx187411 enginx187411',
    );
  });

  it('gives a posting with no place no terms, and a title of no words none', () => {
    assert.equal(titleCellTermsOf('Software Engineer', null), '');
    assert.equal(titleCellTermsOf(' — / ', 5), '');
  });

  it('asks, for each word of a search, any of its terms in the cells', () => {
    assert.deepEqual(titleCellQueryOf(['software', 'engineers'], [7, 8]), [
      ['softwarx7', 'softwarx8'],
      ['enginx7', 'enginx8'],
    ]);
  });

  it('keeps letters of any script and digits, lower case, stemming the English words', () => {
    assert.equal(titleCellTermsOf('Café C++ Entwickler 3D', 1), 'caféx1 cx1 entwicklx1 3dx1');
  });
});
